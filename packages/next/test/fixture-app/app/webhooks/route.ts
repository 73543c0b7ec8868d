import { createRouteHandler } from "@tidings/next";
import { fixtureReceiver } from "../../lib/receiver";

export const runtime = "nodejs";
export const POST = createRouteHandler(fixtureReceiver());
