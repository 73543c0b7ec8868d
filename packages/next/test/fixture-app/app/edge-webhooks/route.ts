import { createRouteHandler } from "@tidings/next";
import { fixtureReceiver } from "../../lib/receiver";

export const runtime = "edge";
export const POST = createRouteHandler(fixtureReceiver());
