// Type tests, checked by `tsc --noEmit` (the package's `typecheck` script): each `@ts-expect-error` line must stay an
// error, so a registration that stops being refused fails the check. Nothing here runs.
import { createReceiver, type MessageEvents } from "@tidings/core";
import { createFetchHandler, type RouteMatch } from "@tidings/fetch";
import { Hono } from "hono";
import { describe, expectTypeOf, it } from "vitest";
import { typedReceiver } from "../../../test/support/typed-receiver";

type ShipmentEvents = { "shipment.sent": { type: "shipment.sent"; trackingId: string } };

describe("registering createFetchHandler", () => {
  it("mounts as the README shows: a Hono route given c.req.raw, a mounted app, a bare fetch handler", () => {
    const handle = createFetchHandler(createReceiver({ secret: "whsec_types" }));
    new Hono().post("/webhooks", (c) => handle(c.req.raw));
    new Hono().all("/webhooks/:account", (c) => handle(c.req.raw, { params: c.req.param(), route: c.req.routePath }));
    new Hono().mount("/webhooks", handle);
    const worker: { fetch(request: Request): Promise<Response> } = { fetch: handle };
    expectTypeOf(handle).toExtend<(request: Request) => Promise<Response>>();
    expectTypeOf(handle).parameter(1).toEqualTypeOf<RouteMatch | undefined>();
    expectTypeOf(createFetchHandler(createReceiver<ShipmentEvents>({ secret: "whsec_types" }))).toEqualTypeOf(handle);
    return worker;
  });

  it("gives handlers the event of their type and the verified bytes", () => {
    const receiver = typedReceiver();
    return createFetchHandler(receiver);
  });

  it("refuses what is not a registration", () => {
    const receiver = createReceiver({ secret: "whsec_types" });
    const handle = createFetchHandler(receiver);
    // @ts-expect-error the options of createReceiver are not a Receiver
    createFetchHandler({ secret: "whsec_types" });
    // @ts-expect-error a Hono handler gets Hono's Context: pass c.req.raw to the fetch handler
    new Hono().post("/webhooks", handle);
    // @ts-expect-error HonoRequest is not the Web Request: pass c.req.raw
    new Hono().post("/webhooks", (c) => handle(c.req));
    // @ts-expect-error the route match names `route`, not `path`
    new Hono().post("/webhooks/:account", (c) => handle(c.req.raw, { path: c.req.routePath }));
    // @ts-expect-error the route match's params are an object of the router's matches
    new Hono().post("/webhooks/:account", (c) => handle(c.req.raw, { params: c.req.param("account") }));
    // @ts-expect-error no such event type in MessageEvents
    receiver.on("message.bounced", () => {});
    // @ts-expect-error a handler for delivered events cannot take failed ones
    receiver.on("message.delivered", (_event: MessageEvents["message.failed"]) => {});
  });
});
