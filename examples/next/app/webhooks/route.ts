import { createRouteHandler } from "@tidings/next";
import { nodeReceiver } from "../../lib/receiver";

export const runtime = "nodejs";

export function POST(request: Request): Promise<Response> {
  return createRouteHandler(nodeReceiver())(request);
}
