import { createReceiver } from "@tidings/core";
import type { NextApiHandler } from "next";
import type { NextRequest } from "next/server";
import { expectTypeOf, it } from "vitest";
import { createPagesHandler, createRouteHandler } from "../src";

// Checked by `tsc --noEmit` (the package's typecheck): the handlers fit where Next.js puts them.
it("gives Next.js the handler types it expects for route handlers and API routes", () => {
  const receiver = createReceiver<{ "order.paid": { type: "order.paid"; id: string } }>({ secret: "whsec_types" });
  expectTypeOf(createRouteHandler(receiver)).toExtend<(request: NextRequest) => Promise<Response>>();
  expectTypeOf(createPagesHandler(receiver)).toExtend<NextApiHandler>();
});
