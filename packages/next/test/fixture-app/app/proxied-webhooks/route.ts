import { createRouteHandler } from "@tidings/next";
import { fixtureReceiver } from "../../lib/receiver";

// Behind proxy.ts, which sees only the first 10 MB of a body: allow more so the cut is what gets caught.
export const POST = createRouteHandler(fixtureReceiver(16 * 1024 * 1024));
