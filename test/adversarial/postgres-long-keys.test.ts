import { PGlite } from "@electric-sql/pglite";
import { createReceiver, type MessageEvents, messageStatusOrder, sign } from "@tidings/core";
import { github } from "@tidings/core/schemes";
import { PostgresStore } from "@tidings/postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresServer } from "../support/postgres-server";

// An id or object key past what a btree entry holds (about 2,700 bytes) used to fail every claim: 503 on each retry,
// so the sender retried forever. Random text, since PostgreSQL compresses a repetitive key into the entry.
const SECRET = "whsec_long_keys";
const quiet = { error() {}, warn() {} };
let server: PostgresServer;
let pool: pg.Pool;
let pglite: PGlite;
let tables = 0;

beforeAll(async () => {
  server = await PostgresServer.start();
  pool = new pg.Pool({ connectionString: server.url, max: 4 });
  pglite = new PGlite();
});
afterAll(async () => {
  await pool?.end();
  await pglite?.close();
  await server?.remove();
});

function noise(length: number): string {
  return Array.from({ length: Math.ceil(length / 36) }, () => crypto.randomUUID())
    .join("")
    .slice(0, length);
}

function delivery(id: string, message: string, type: keyof MessageEvents) {
  const payload = { id, type, data: { id: message, status: type.slice("message.".length), channel: "sms" } };
  const rawBody = new TextEncoder().encode(JSON.stringify(payload));
  return { rawBody, headers: { "service-signature": sign(rawBody, SECRET) } };
}

const CLIENTS = { "PostgreSQL 15": () => pool, PGlite: () => pglite };

for (const [name, client] of Object.entries(CLIENTS)) {
  describe(`long keys on PostgresStore, ${name}, through a Receiver`, () => {
    const receiverOn = (order: boolean) => {
      const seen: string[] = [];
      const store = new PostgresStore({ client: client(), table: `long_${tables++}` });
      const receiver = createReceiver({
        secret: SECRET,
        store,
        logger: quiet,
        ...(order && { order: messageStatusOrder }),
      }).onAny((event) => {
        seen.push(`${String(event.id).length}:${event.type}`);
      });
      return { receiver, seen };
    };

    it("handles a 3,000- and a 10,000-character event id once, and answers their replays duplicate", async () => {
      const { receiver, seen } = receiverOn(false);
      const events = [3000, 10_000].map((length) => delivery(`evt_${noise(length - 4)}`, "msg_1", "message.sent"));
      for (const event of events)
        expect(await receiver.receive(event)).toMatchObject({ status: 200, code: "accepted" });
      for (const event of events)
        expect(await receiver.receive(event)).toMatchObject({ status: 200, code: "duplicate" });
      expect(seen).toEqual(["3000:message.sent", "10000:message.sent"]);
    });

    it("handles a GitHub delivery with a 4 kB X-GitHub-Delivery once, and answers its replay duplicate", async () => {
      const store = new PostgresStore({ client: client(), table: `long_${tables++}` });
      let runs = 0;
      const receiver = createReceiver({ scheme: github(), secret: SECRET, store, logger: quiet }).onAny(() => {
        runs++;
      });
      const body = JSON.stringify({ ref: "refs/heads/main" });
      const headers = { ...github().sign(body, SECRET), "x-github-event": "push", "x-github-delivery": noise(4096) };
      const push = { rawBody: new TextEncoder().encode(body), headers };
      expect(await receiver.receive(push)).toMatchObject({ status: 200, code: "accepted" });
      expect(await receiver.receive(push)).toMatchObject({ status: 200, code: "duplicate" });
      expect(runs).toBe(1);
    });

    it("keeps order for objects of 3,000 and 10,000 characters: a late older status is stale", async () => {
      const { receiver, seen } = receiverOn(true);
      for (const length of [3000, 10_000]) {
        const message = noise(length);
        const id = `evt_${noise(length - 4)}`;
        expect((await receiver.receive(delivery(`${id}-3`, message, "message.delivered"))).code).toBe("accepted");
        expect((await receiver.receive(delivery(`${id}-2`, message, "message.sent"))).code).toBe("stale");
        expect((await receiver.receive(delivery(`${id}-3`, message, "message.delivered"))).code).toBe("duplicate");
        // One character apart is another object.
        const other = `${message.slice(0, -1)}${message.endsWith("a") ? "b" : "a"}`;
        expect((await receiver.receive(delivery(`${id}-o`, other, "message.sent"))).code).toBe("accepted");
      }
      expect(seen).toEqual([
        "3002:message.delivered",
        "3002:message.sent",
        "10002:message.delivered",
        "10002:message.sent",
      ]);
    });
  });
}
