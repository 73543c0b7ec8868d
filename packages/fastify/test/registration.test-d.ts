// Type tests, checked by `tsc --noEmit` (the package's `typecheck` script): each `@ts-expect-error` line must stay an
// error, so a registration that stops being refused fails the check. Nothing here runs.
import { createReceiver, type MessageEvents } from "@tidings/core";
import tidings, { type TidingsFastifyOptions, tidingsPlugin } from "@tidings/fastify";
import Fastify, { type FastifyPluginCallback } from "fastify";
import { describe, expectTypeOf, it } from "vitest";
import { typedReceiver } from "../../../test/support/typed-receiver";

type ShipmentEvents = { "shipment.sent": { type: "shipment.sent"; trackingId: string } };

describe("registering the Fastify plugin", () => {
  it("registers as the README shows, with its options checked", async () => {
    const receiver = createReceiver({ secret: "whsec_types" });
    const app = Fastify();
    await app.register(tidings, { receiver, path: "/webhooks" });
    await app.register(tidingsPlugin, { receiver, path: "/webhooks/:account", prefix: "/v1" });
    await app.register(tidings, { receiver: createReceiver<ShipmentEvents>({ secret: "whsec_types" }), path: "/ship" });
    expectTypeOf(tidings).toEqualTypeOf(tidingsPlugin);
    expectTypeOf(tidingsPlugin).toExtend<FastifyPluginCallback<TidingsFastifyOptions>>();
    expectTypeOf<TidingsFastifyOptions["path"]>().toEqualTypeOf<string>();
  });

  it("gives handlers the event of their type and the verified bytes", async () => {
    const receiver = typedReceiver();
    await Fastify().register(tidings, { receiver, path: "/webhooks" });
  });

  it("refuses a wrong option name, a wrong option type, a missing option and a non-receiver", async () => {
    const receiver = createReceiver({ secret: "whsec_types" });
    const app = Fastify();
    // @ts-expect-error the option is `path`
    await app.register(tidings, { receiver, route: "/webhooks" });
    // @ts-expect-error an option the plugin does not take, beside the ones it needs
    await app.register(tidings, { receiver, path: "/webhooks", secret: "whsec_types" });
    // @ts-expect-error `path` is a string
    await app.register(tidings, { receiver, path: 42 });
    // @ts-expect-error without a receiver there is nothing to verify with
    await app.register(tidings, { path: "/webhooks" });
    // @ts-expect-error the options of createReceiver are not a Receiver
    await app.register(tidings, { receiver: { secret: "whsec_types" }, path: "/webhooks" });
    // @ts-expect-error no such event type in MessageEvents
    receiver.on("message.bounced", () => {});
    // @ts-expect-error a handler for delivered events cannot take failed ones
    receiver.on("message.delivered", (_event: MessageEvents["message.failed"]) => {});
  });
});
