import { fileURLToPath } from "node:url";
import { sign } from "@tidings/core";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureNodeBinaries, nodeBinary } from "../runtimes/lib/node-binaries.mjs";
import { PostgresServer } from "../support/postgres-server";
import { type FixtureProcess, startFixture } from "../support/queue-scenarios";
import { RedisServer } from "../support/redis-server";
import { capped, until } from "../support/wait";
import { ORDER_SECRET } from "./fixtures/record";

// Every status event of 300 messages, shuffled, some twice, sent concurrently to two receiver processes sharing a
// store, retried on 409 and 5xx as the service retries: each message must end at its final status, its handlers
// must have seen its positions strictly increasing and never two at once, and every event ran or was answered stale.

const MESSAGES = 300;
const SENDERS = 24;
const RECEIVER = fileURLToPath(new URL("fixtures/receiver.ts", import.meta.url));
const BULLMQ_WORKER = fileURLToPath(new URL("fixtures/bullmq-worker.ts", import.meta.url));
const PG_BOSS_WORKER = fileURLToPath(new URL("fixtures/pg-boss-worker.ts", import.meta.url));
// pg-boss 12 needs Node ≥ 22: its receivers and workers run on the project's Node 24.
const NODE_24 = nodeBinary("node24");

interface Planned {
  id: string;
  message: string;
  body: string;
}

function plan(variant: string): { sends: Planned[]; finals: Map<string, string>; ids: Set<string> } {
  const finals = new Map<string, string>();
  const sends: Planned[] = [];
  const ids = new Set<string>();
  for (let i = 0; i < MESSAGES; i++) {
    const message = `msg_${variant}_${i}`;
    const final = Math.random() < 0.5 ? "delivered" : "failed";
    finals.set(message, final);
    for (const status of ["queued", "sent", final]) {
      const id = `${message}-${status}`;
      ids.add(id);
      const body = JSON.stringify({ id, type: `message.${status}`, data: { id: message, status, channel: "sms" } });
      sends.push({ id, message, body });
      if (Math.random() < 0.3) sends.push({ id, message, body }); // delivered twice
    }
  }
  for (let i = sends.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [sends[i], sends[j]] = [sends[j] as Planned, sends[i] as Planned];
  }
  return { sends, finals, ids };
}

/**
 * Sends until a 2xx, each attempt freshly signed and to either instance, as the service's retries would. A 409 comes
 * once the receiver has waited `orderWaitMs` for the object, so the retry goes at once.
 */
async function deliver(urls: readonly string[], body: string, answers: Map<number, number>): Promise<void> {
  await until(
    async () => {
      const url = urls[Math.floor(Math.random() * urls.length)] as string;
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "service-signature": sign(body, ORDER_SECRET) },
        body,
      });
      await response.text();
      answers.set(response.status, (answers.get(response.status) ?? 0) + 1);
      if (response.status >= 300 && response.status !== 409 && response.status < 500) {
        throw new Error(`answered ${response.status}: ${body}`);
      }
      return response.status < 300;
    },
    `a 2xx for ${body}`,
    { withinMs: 180_000 },
  );
}

async function sendAll(urls: readonly string[], sends: readonly Planned[]): Promise<Map<number, number>> {
  const answers = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < sends.length) await deliver(urls, (sends[next++] as Planned).body, answers);
    }),
  );
  return answers;
}

/**
 * Waits until every event was handled or found stale (workers run after the answer), popping each note from `settled`
 * as the handlers and stale verdicts push it; fails with what is missing.
 */
async function settled(ids: Set<string>): Promise<void> {
  const waiting = new Set(ids);
  const watcher = book.duplicate(); // BLPOP blocks its connection
  watcher.on("error", () => {});
  const popping = (async () => {
    while (waiting.size > 0) {
      const popped = await watcher.blpop("settled", 0);
      if (popped) waiting.delete(popped[1]);
    }
  })();
  popping.catch(() => {}); // after a give-up, the pending BLPOP fails as the connection closes
  try {
    await capped(popping, () => `${waiting.size} events neither handled nor stale: ${[...waiting].slice(0, 5)}`, {
      withinMs: 180_000,
    });
  } finally {
    watcher.disconnect();
  }
}

async function check(book: Redis, { finals, ids }: ReturnType<typeof plan>): Promise<{ stale: number }> {
  expect(await book.lrange("overlaps", 0, -1)).toEqual([]);
  const handled = await book.lrange("handled", 0, -1);
  const stale = await book.lrange("stale", 0, -1);
  expect(new Set(handled).size).toBe(handled.length); // no event's handlers ran twice
  const accounted = new Set([...handled, ...stale]);
  expect([...ids].filter((id) => !accounted.has(id))).toEqual([]);
  const wrong: string[] = [];
  for (const [message, final] of finals) {
    const positions = (await book.lrange(`seen:${message}`, 0, -1)).map(Number);
    const increasing = positions.every((position, i) => i === 0 || position > (positions[i - 1] as number));
    const status = await book.get(`status:${message}`);
    if (!increasing || status !== final) wrong.push(`${message}: saw ${positions.join(",")}, ended ${status}`);
  }
  expect(wrong).toEqual([]);
  return { stale: stale.length };
}

let storeRedis: RedisServer;
let bookRedis: RedisServer;
let postgres: PostgresServer;
let book: Redis;
const processes: FixtureProcess[] = [];

beforeAll(async () => {
  // The pg-boss processes run on Node 24: installed here on a machine that has not fetched it yet.
  ensureNodeBinaries();
  [storeRedis, bookRedis, postgres] = await Promise.all([
    RedisServer.start(),
    RedisServer.start(),
    PostgresServer.start(),
  ]);
  book = new Redis({ host: "127.0.0.1", port: bookRedis.port });
});

afterAll(async () => {
  await Promise.all(processes.map((child) => child.stop()));
  book?.disconnect();
  await Promise.all([storeRedis?.remove(), bookRedis?.remove(), postgres?.remove()]);
});

async function start(script: string, env: Record<string, string>, node?: string): Promise<FixtureProcess> {
  const settings = {
    BOOK_PORT: String(bookRedis.port),
    REDIS_PORT: String(storeRedis.port),
    POSTGRES_URL: postgres.url,
    BOSS_URL: postgres.url,
    ...env,
  };
  const child = await startFixture(script, settings, node);
  processes.push(child);
  return child;
}

async function receivers(env: Record<string, string>, node?: string): Promise<string[]> {
  const started = await Promise.all([start(RECEIVER, env, node), start(RECEIVER, env, node)]);
  return started.map((child) => `http://127.0.0.1:${(child.ready as { port: number }).port}/webhooks`);
}

describe("events in order under disorder", () => {
  for (const store of ["redis", "postgres"] as const) {
    it(`two receiver processes sharing a ${store === "redis" ? "RedisStore" : "PostgresStore"}`, async () => {
      await book.flushdb();
      const planned = plan(store);
      const urls = await receivers({ STORE: store, MODE: "inline" });
      const answers = await sendAll(urls, planned.sends);
      const { stale } = await check(book, planned);
      expect(stale).toBeGreaterThan(0); // the shuffle did put older statuses after newer ones
      expect(answers.get(200)).toBe(planned.sends.length);
    }, 240_000);
  }

  it("two receivers enqueueing to BullMQ, two ordered workers sharing a RedisStore", async () => {
    await book.flushdb();
    const planned = plan("bullmq");
    const queue = `ordering-${Date.now()}`;
    await Promise.all([
      start(BULLMQ_WORKER, { STORE: "redis", QUEUE: queue }),
      start(BULLMQ_WORKER, { STORE: "redis", QUEUE: queue }),
    ]);
    const urls = await receivers({ STORE: "redis", MODE: "enqueue", QUEUE: queue });
    await sendAll(urls, planned.sends);
    await settled(planned.ids);
    const { stale } = await check(book, planned);
    expect(stale).toBeGreaterThan(0);
  }, 240_000);

  it("two receivers enqueueing to pg-boss, two ordered pg-boss workers sharing a PostgresStore", async () => {
    await book.flushdb();
    const planned = plan("pgboss");
    const queue = `ordering-${Date.now()}`;
    // One worker first: it installs pg-boss's schema before the others start on the database.
    await start(PG_BOSS_WORKER, { STORE: "postgres", QUEUE: queue }, NODE_24);
    await start(PG_BOSS_WORKER, { STORE: "postgres", QUEUE: queue }, NODE_24);
    const urls = await receivers({ STORE: "postgres", MODE: "enqueue", ENGINE: "pg-boss", QUEUE: queue }, NODE_24);
    await sendAll(urls, planned.sends);
    await settled(planned.ids);
    const { stale } = await check(book, planned);
    expect(stale).toBeGreaterThan(0);
  }, 240_000);
});
