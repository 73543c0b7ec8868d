import { createReceiver, messageStatusOrder } from "@tidings/core";
import fc from "fast-check";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisServer } from "../../../test/support/redis-server";
import { RedisStore } from "../src";

// Redis Cluster runs a script only if all its keys hash to one slot: the slot of a key is CRC16 of its hash tag (the
// bytes between the first `{` and the next `}`, when not empty) or of the whole key, modulo 16384.

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function slotOf(key: string | Buffer): number {
  const bytes = typeof key === "string" ? Buffer.from(key) : key;
  const open = bytes.indexOf(0x7b);
  const close = open < 0 ? -1 : bytes.indexOf(0x7d, open + 1);
  const tagged = close > open + 1 ? bytes.subarray(open + 1, close) : bytes;
  return crc16(tagged) % 16384;
}

let server: RedisServer;
let client: Redis;
beforeAll(async () => {
  server = await RedisServer.start();
  client = new Redis({ host: "127.0.0.1", port: server.port });
});
afterAll(async () => {
  client.disconnect();
  await server.stop();
});

describe("RedisStore's ordered steps in a Redis Cluster", () => {
  it("checks the slot function against Redis's own examples", () => {
    expect(crc16(Buffer.from("123456789"))).toBe(0x31c3);
    expect(slotOf("{user1000}.following")).toBe(slotOf("{user1000}.followers"));
    expect(slotOf("foo{}{bar}")).toBe(crc16(Buffer.from("foo{}{bar}")) % 16384);
  });

  it("property: with a hash-tagged prefix, each script's keys share one slot, whatever the object and the key hold", async () => {
    const slotsPerScript: number[][] = [];
    // The real client, with each script's keys noted on the way, taken for a Cluster client.
    const recording = new Proxy(client, {
      get(target, name, receiver) {
        if (name === "isCluster") return true;
        if (name !== "eval") return Reflect.get(target, name, receiver);
        return (script: string, count: number, ...rest: (string | Buffer | number)[]) => {
          slotsPerScript.push(rest.slice(0, count).map((key) => slotOf(key as string | Buffer)));
          return target.eval(script, count, ...rest);
        };
      },
    });
    const text = fc.string({ unit: fc.constantFrom("{", "}", "a", ":", "\uD800", "\uDE00", "é"), maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(text, text, fc.constantFrom("{tidings}:", "{app}:", "a}b{c}:"), async (object, id, prefix) => {
        const store = new RedisStore({ client: recording, prefix });
        const order = { object, position: 1 };
        const claim = await store.claimInOrder(`event:${id}`, 10_000, order, 10_000);
        if (claim.state === "claimed") {
          await store.renew(`event:${id}`, claim.token, 10_000, order);
          await store.releaseInOrder(`event:${id}`, claim.token, order);
        }
        await store.completeInOrder(`event:${id}`, "token", 10_000, order);
      }),
      { numRuns: 200 },
    );
    expect(slotsPerScript.length).toBeGreaterThan(400);
    for (const slots of slotsPerScript) expect(new Set(slots).size).toBe(1);
  });

  it("on a Cluster client, refuses the ordered steps under a prefix with no hash tag, naming the fix", async () => {
    const cluster = new Proxy(client, {
      get: (target, name, receiver) => (name === "isCluster" ? true : Reflect.get(target, name, receiver)),
    });
    for (const prefix of ["tidings:", "a}b:", "{}:"]) {
      const store = new RedisStore({ client: cluster, prefix });
      const order = { object: "msg_1", position: 1 };
      await expect(store.claimInOrder("event:1", 10_000, order, 10_000)).rejects.toThrow(/hash-tagged prefix/);
      await expect(store.renew("event:1", "token", 10_000, order)).rejects.toThrow(/hash-tagged prefix/);
      // Refused when the Receiver is created, not answered 503 per delivery.
      expect(() => createReceiver({ secret: "whsec_cluster", store, order: messageStatusOrder })).toThrow(
        /createReceiver: `order`: .*hash-tagged prefix/,
      );
      // Plain dedup touches one key per script: any prefix spreads over the cluster.
      expect(await store.claim(`event:${prefix}`, 10_000)).toMatchObject({ state: "claimed" });
    }
  });

  it("refuses a prefix whose hash tag would run into the key names", () => {
    expect(() => new RedisStore({ client, prefix: "tidings{:" })).toThrow(/hash tag/);
  });
});
