// The processes of a soak run (receivers, workers, and the end-of-run drain check): each engine's store and queue,
// built from the env startEngine gives. With EFFECTS, handlers run in the delivery's transaction (effects.ts): the
// workers', and for the `request` engine the receivers' own, which run them rather than enqueue.
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import {
  openQueueAdmin as bullmqAdmin,
  enqueueTo as bullmqEnqueue,
  createWorker as bullmqWorker,
} from "@tidings/bullmq";
import { createReceiver, type DeliveryStore, type MessageEvent, messageStatusOrder } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import {
  openQueueAdmin as pgBossAdmin,
  enqueueTo as pgBossEnqueue,
  createWorker as pgBossWorker,
} from "@tidings/pg-boss";
import { PostgresStore } from "@tidings/postgres";
import { RedisStore } from "@tidings/redis";
import { Queue } from "bullmq";
import express from "express";
import { Redis } from "ioredis";
import pg from "pg";
import { PgBoss } from "pg-boss";
import { type EffectsEnv, effectsParts } from "./effects";

type Env = "ENGINE" | "ROLE" | "SECRET" | "QUEUE" | "EFFECTS" | "EFFECTS_DIR" | "REDIS_PORT" | "DATABASE_URL";
const { ENGINE, ROLE, SECRET, QUEUE, EFFECTS, EFFECTS_DIR, REDIS_PORT, DATABASE_URL } = process.env as Record<
  Env,
  string
>;
const redisOptions = { host: "127.0.0.1", port: Number(REDIS_PORT), maxRetriesPerRequest: null };
// A worker that dies mid-job leaves its hold on the message for this long before another may take it.
const LEASE_MS = 5000;

function store(): DeliveryStore {
  if (ENGINE === "pg-boss") {
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 8, query_timeout: 2000 });
    pool.on("error", () => {});
    return new PostgresStore({ client: pool });
  }
  const client = new Redis({ ...redisOptions, maxRetriesPerRequest: 2 });
  client.on("error", () => {});
  return new RedisStore({ client, prefix: "soak:" });
}

async function boss(): Promise<PgBoss> {
  const started = new PgBoss({ connectionString: DATABASE_URL, superviseIntervalSeconds: 2 });
  started.on("error", () => {});
  await started.start();
  await started.createQueue(QUEUE).catch(() => {});
  return started;
}

async function receiver(): Promise<void> {
  // A receiver killed mid-delivery leaves its claim in flight until the lease ends: shorter than the default minute.
  const common = { secret: SECRET, leaseMs: 10_000, logger: { error() {}, warn() {} } };
  if (ENGINE === "request") {
    const write = effects();
    const { store, transactions, handler } = effectsParts(process.env as unknown as EffectsEnv, write);
    const app = createReceiver({ ...common, store, transactions, order: messageStatusOrder });
    app.onAny(handler);
    app.onOutcome((outcome) => {
      if (outcome.code === "stale") write(`stale ${outcome.delivery?.deliveryKey.replace(/^event:/, "")} -`);
    });
    return listen(webhookMiddleware(app));
  }
  const app = createReceiver({ ...common, store: store() });
  if (ENGINE === "pg-boss") {
    app.onAny(pgBossEnqueue({ boss: await boss(), queue: QUEUE }, { attempts: 20, pgBoss: { expireInSeconds: 10 } }));
  } else {
    const queue = new Queue(QUEUE, { connection: redisOptions });
    queue.on("error", () => {});
    app.onAny(bullmqEnqueue(queue, { attempts: 20 }));
  }
  listen(webhookMiddleware(app));
}

function listen(middleware: ReturnType<typeof webhookMiddleware>): void {
  const server = express()
    .post("/webhooks", middleware)
    .listen(0, "127.0.0.1", () => {
      console.log(JSON.stringify({ port: (server.address() as { port: number }).port }));
    });
}

/** Every handler run and stale verdict, one line each, appended as it happens so a SIGKILL loses none. */
function effects(): (line: string) => void {
  const file = join(EFFECTS_DIR, `${process.pid}.log`);
  return (line) => appendFileSync(file, `${line} ${process.pid} ${Date.now()}\n`);
}

async function worker(): Promise<void> {
  const write = effects();
  const transactional = EFFECTS === "1" ? effectsParts(process.env as unknown as EffectsEnv, write) : undefined;
  const options = {
    order: messageStatusOrder,
    store: transactional?.store ?? store(),
    leaseMs: LEASE_MS,
    logger: { error() {} },
    ...(transactional ? { transactions: transactional.transactions } : {}),
  };
  const running =
    ENGINE === "pg-boss"
      ? pgBossWorker({
          boss: await boss(),
          queue: QUEUE,
          concurrency: 8,
          pgBoss: { pollingIntervalSeconds: 0.5 },
          ...options,
        })
      : bullmqWorker({
          queue: QUEUE,
          connection: redisOptions,
          concurrency: 8,
          ...options,
          bullmq: { stalledInterval: 2000, maxStalledCount: 100 },
        });
  if (transactional) running.onAny(transactional.handler);
  else {
    running.onAny(async (received) => {
      const event = received as MessageEvent<string, string>;
      write(`ran ${event.id} ${event.data.id} ${event.data.status}`);
    });
  }
  // A job its store already has as handled ran (or was judged stale) in a run whose worker died before the job
  // completed: its rerun runs no handlers, and is noted so that the event is not counted lost.
  running.onOutcome((outcome) => {
    if (outcome.code === "stale" || outcome.code === "duplicate") {
      write(`${outcome.code} ${outcome.delivery?.deliveryKey.replace(/^event:/, "")} -`);
    }
  });
  await running.ready;
  console.log(JSON.stringify({ worker: process.pid }));
}

/**
 * Waits until the queue holds no job to run (none waiting, delayed or active) at two looks a second apart, then
 * exits: a job deferred behind a dead worker's lease, or retried after a restart, is still to come until then.
 */
async function drain(): Promise<void> {
  const admin =
    ENGINE === "pg-boss"
      ? await pgBossAdmin({ postgres: DATABASE_URL, queue: QUEUE })
      : await bullmqAdmin({ redis: `redis://127.0.0.1:${REDIS_PORT}`, queue: QUEUE });
  for (let empty = 0; empty < 2; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { waiting, prioritized = 0, delayed, active } = await admin.stats();
    empty = waiting + prioritized + delayed + active === 0 ? empty + 1 : 0;
  }
  await admin.close();
  console.log(JSON.stringify({ drained: true }));
}

const roles = { receiver, worker, drain } as Record<string, () => Promise<void>>;
await roles[ROLE]?.();
