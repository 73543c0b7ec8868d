// Type tests, checked by `tsc --noEmit` (the package's `typecheck` script): each `@ts-expect-error` line must stay an
// error, so a registration that stops being refused fails the check. Nothing here runs.
import { createReceiver, type MessageEvents } from "@tidings/core";
import { createPagesHandler, createRouteHandler } from "@tidings/next";
import type { NextApiHandler, PageConfig } from "next";
import type { NextRequest } from "next/server";
import { describe, expectTypeOf, it } from "vitest";
import { typedReceiver } from "../../../test/support/typed-receiver";

type ShipmentEvents = { "shipment.sent": { type: "shipment.sent"; trackingId: string } };

/** What `next build` checks an App Router route's POST export against (its generated `RouteHandlerConfig`). */
type AppRoutePost<Params> = (
  request: NextRequest,
  context: { params: Promise<Params> },
  // biome-ignore lint/suspicious/noConfusingVoidType: Next.js's declaration, as it generates it
) => Promise<Response | void> | Response | void;

describe("registering the Next.js handlers", () => {
  it("exports as the README shows: an App Router POST, static or dynamic, and a Pages Router API route", () => {
    const receiver = createReceiver({ secret: "whsec_types" });
    const POST = createRouteHandler(receiver);
    expectTypeOf(POST).toExtend<AppRoutePost<Record<string, never>>>();
    expectTypeOf(POST).toExtend<AppRoutePost<{ account: string }>>();
    expectTypeOf(createRouteHandler(createReceiver<ShipmentEvents>({ secret: "whsec_types" }))).toExtend<
      AppRoutePost<{ account: string }>
    >();
    const pagesRoute: NextApiHandler = createPagesHandler(receiver);
    const config: PageConfig = { api: { bodyParser: false } };
    // An Edge API route is served the Web Request: the route handler is its default export.
    const edgeConfig: PageConfig = { runtime: "edge" };
    expectTypeOf(createRouteHandler(receiver)).toExtend<(request: Request) => Promise<Response>>();
    return [pagesRoute, config, edgeConfig];
  });

  it("gives handlers the event of their type and the verified bytes", () => {
    const receiver = typedReceiver();
    return createRouteHandler(receiver);
  });

  it("refuses what is not a registration", () => {
    const receiver = createReceiver({ secret: "whsec_types" });
    // @ts-expect-error the options of createReceiver are not a Receiver
    createRouteHandler({ secret: "whsec_types" });
    // @ts-expect-error the Pages handler takes Node's request and response, not an App Router route's Request
    const POST: AppRoutePost<{ account: string }> = createPagesHandler(receiver);
    // @ts-expect-error the App Router handler takes a Web Request, not a Pages Router API route's req and res
    const pagesRoute: NextApiHandler = createRouteHandler(receiver);
    // @ts-expect-error no such event type in MessageEvents
    receiver.on("message.bounced", () => {});
    // @ts-expect-error a handler for delivered events cannot take failed ones
    receiver.on("message.delivered", (_event: MessageEvents["message.failed"]) => {});
    return [POST, pagesRoute];
  });
});
