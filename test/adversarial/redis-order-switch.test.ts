import { createReceiver, type MessageEvents, messageStatusOrder, sign } from "@tidings/core";
import { RedisStore } from "@tidings/redis";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisServer } from "../support/redis-server";
import { until } from "../support/wait";

// A rolling deploy that switches `order` on (or a rollback that switches it off): for a while, receivers of both
// kinds share one Redis and one prefix, and a sender's retry may reach either kind.
const SECRET = "whsec_order_switch";
const quiet = { error() {}, warn() {} };
let server: RedisServer;
let client: Redis;
let prefixes = 0;

beforeAll(async () => {
  server = await RedisServer.start();
  client = new Redis({ host: "127.0.0.1", port: server.port });
});
afterAll(async () => {
  client.disconnect();
  await server.remove();
});

function delivery(id: string, message: string, type: keyof MessageEvents) {
  const payload = { id, type, data: { id: message, status: type.slice("message.".length), channel: "sms" } };
  const rawBody = new TextEncoder().encode(JSON.stringify(payload));
  return { rawBody, headers: { "service-signature": sign(rawBody, SECRET) } };
}

/** A receiver without `order` and one with it, on one Redis prefix, each counting its handler runs. */
function bothKinds(handler: (event: { id?: unknown }) => unknown = () => {}) {
  const prefix = `switch:${prefixes++}:`;
  const runs = { plain: 0, ordered: 0 };
  const plain = createReceiver({ secret: SECRET, store: new RedisStore({ client, prefix }), logger: quiet }).onAny(
    (event) => {
      runs.plain++;
      return handler(event);
    },
  );
  const ordered = createReceiver({
    secret: SECRET,
    store: new RedisStore({ client, prefix }),
    order: messageStatusOrder,
    logger: quiet,
  }).onAny((event) => {
    runs.ordered++;
    return handler(event);
  });
  return { plain, ordered, runs };
}

describe("RedisStore with `order` switched on or off between receivers", () => {
  it("answers an event handled by a plain receiver duplicate on an ordered one, handler not run again", async () => {
    const { plain, ordered, runs } = bothKinds();
    const event = delivery("evt_on", "msg_on", "message.sent");
    expect((await plain.receive(event)).code).toBe("accepted");
    expect(await ordered.receive(event)).toMatchObject({ status: 200, code: "duplicate" });
    expect(runs).toEqual({ plain: 1, ordered: 0 });
  });

  it("answers an event handled by an ordered receiver duplicate on a plain one, handler not run again", async () => {
    const { plain, ordered, runs } = bothKinds();
    const event = delivery("evt_off", "msg_off", "message.delivered");
    expect((await ordered.receive(event)).code).toBe("accepted");
    expect(await plain.receive(event)).toMatchObject({ status: 200, code: "duplicate" });
    expect(runs).toEqual({ plain: 0, ordered: 1 });
  });

  it("holds an event in either kind's handlers against a copy reaching the other kind", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { plain, ordered, runs } = bothKinds(() => held);
    const first = delivery("evt_held_1", "msg_held", "message.sent");
    const second = delivery("evt_held_2", "msg_held_2", "message.sent");
    const inOrdered = ordered.receive(first);
    const inPlain = plain.receive(second);
    try {
      await until(() => runs.ordered + runs.plain === 2, "both deliveries in their handlers");
      expect((await plain.receive(first)).code).toBe("delivery_in_progress");
      expect((await ordered.receive(second)).code).toBe("delivery_in_progress");
    } finally {
      release();
    }
    expect([(await inOrdered).code, (await inPlain).code]).toEqual(["accepted", "accepted"]);
    expect(runs).toEqual({ plain: 1, ordered: 1 });
  });
});
