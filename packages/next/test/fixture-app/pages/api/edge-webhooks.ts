import { createRouteHandler } from "@tidings/next";
import { fixtureReceiver } from "../../lib/receiver";

// A Pages Router API route on the Edge runtime gets a Web Request: the route handler serves it.
export default createRouteHandler(fixtureReceiver());
export const config = { runtime: "edge" };
