import { createReceiver, type DeliveryStore, MemoryStore, sign } from "@tidings/core";
import { RedisStore } from "@tidings/redis";
import fc from "fast-check";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyString, nearStrings } from "../stores/strings";
import { RedisServer } from "../support/redis-server";

const SECRET = "whsec_surrogates";
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

const STORES: Record<string, () => DeliveryStore> = {
  RedisStore: () => new RedisStore({ client, prefix: `surrogates:${prefixes++}:` }),
  MemoryStore: () => new MemoryStore(),
};

/** A delivery whose body is JSON as the sender writes it: any lone surrogate escaped, as JSON.stringify does. */
function delivery(id: string) {
  const rawBody = new TextEncoder().encode(JSON.stringify({ type: "message.sent", id }));
  return { rawBody, headers: { "service-signature": sign(rawBody, SECRET) } };
}

function counting(store: DeliveryStore, endpoint?: (param: string | undefined) => string) {
  const runs = new Map<string, number>();
  const receiver = createReceiver({
    secret: endpoint ? ({ params }) => ({ secret: SECRET, endpoint: endpoint(params.account) }) : SECRET,
    store,
    logger: { error() {}, warn() {} },
  }).onAny((event) => {
    runs.set(String(event.id), (runs.get(String(event.id)) ?? 0) + 1);
  });
  return { receiver, runs };
}

for (const [name, makeStore] of Object.entries(STORES)) {
  describe(`lone surrogates in dedup keys, ${name}`, () => {
    it("runs the handlers once for each of evt_\\uD800, evt_\\uD801 and evt_\\uDFFF, and a resend of each is a duplicate", async () => {
      const { receiver, runs } = counting(makeStore());
      const ids = ["evt_\uD800", "evt_\uD801", "evt_\uDFFF", "evt_\uFFFD"];
      for (const id of ids) expect((await receiver.receive(delivery(id))).code).toBe("accepted");
      for (const id of ids) expect((await receiver.receive(delivery(id))).code).toBe("duplicate");
      expect([...runs.values()]).toEqual([1, 1, 1, 1]);
    });

    it("answers an endpoint labelled with a lone surrogate as any other, not 500 on every retry", async () => {
      const { receiver, runs } = counting(makeStore(), (account) => `acct_${account === "1" ? "\uD800" : "\uDBFF"}`);
      const at = (account: string) =>
        receiver.receive({ ...delivery("evt_1"), target: { path: "/", params: { account } } });
      expect([(await at("1")).code, (await at("2")).code, (await at("1")).code]).toEqual([
        "accepted",
        "accepted",
        "duplicate",
      ]);
      expect(runs.get("evt_1")).toBe(2);
    });

    it("property: every distinct id runs its handlers exactly once, whatever code units it holds", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.oneof(nearStrings(), fc.tuple(anyString(), anyString())), { minLength: 1, maxLength: 3 }),
          async (pairs) => {
            const ids = [...new Set(pairs.flat().filter((id) => id !== ""))];
            fc.pre(ids.length > 0);
            const { receiver, runs } = counting(makeStore());
            for (const id of ids) await receiver.receive(delivery(id));
            for (const id of ids) expect((await receiver.receive(delivery(id))).code).toBe("duplicate");
            expect(ids.map((id) => runs.get(id))).toEqual(ids.map(() => 1));
          },
        ),
        { numRuns: 100 },
      );
    }, 60_000);
  });
}
