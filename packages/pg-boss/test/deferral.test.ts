import { type DeliveryContext, MemoryStore, messageStatusOrder } from "@tidings/core";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PostgresServer } from "../../../test/support/postgres-server";
import { until } from "../../../test/support/wait";
import { createWorker, enqueueTo, jobIdFor } from "../src";

let postgres: PostgresServer;
let boss: PgBoss;

beforeAll(async () => {
  postgres = await PostgresServer.start();
  boss = new PgBoss({ connectionString: postgres.url });
  boss.on("error", () => {});
  await boss.start();
});
afterAll(async () => {
  await boss.stop({ graceful: false });
  await postgres.stop();
});

const context = (type: string, deliveryKey: string): DeliveryContext => ({
  type,
  deliveryKey,
  idempotencyKey: () => "unused",
  timestamp: 1,
  secretIndex: 0,
  verifiedBody: new Uint8Array(),
  headers: {},
});

it("an ordered job put back while its message is busy keeps the retries, expiry and retention it was sent with", async () => {
  const queue = "deferral";
  const enqueue = enqueueTo(
    { boss, queue },
    {
      attempts: 6,
      retryDelaySeconds: 7,
      retryBackoff: "exponential",
      keepCompletedSeconds: 7200,
      pgBoss: { expireInSeconds: 600 },
    },
  );
  // Two events of one message, fetched together: whichever claims the message first holds it, the other is put back.
  const events = ["message.sent", "message.delivered"].map((type, index) => ({
    event: { id: `evt_${index}`, type, data: { id: "msg_busy" } },
    key: `event:evt_${index}`,
  }));
  for (const { event, key } of events) await enqueue(event, context(event.type, key));

  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const worker = createWorker({
    boss,
    queue,
    concurrency: 2,
    pgBoss: { pollingIntervalSeconds: 0.5 },
    order: messageStatusOrder,
    store: new MemoryStore(),
    orderWaitMs: 0,
    logger: { error() {} },
  }).onAny(() => held);
  try {
    const copies = events.map(({ key }) => jobIdFor(`deferred:${jobIdFor(key)}`));
    const deferredCopy = async () =>
      (await Promise.all(copies.map((id) => boss.getJobById(queue, id)))).find((job) => job !== null);
    const stored = await until(deferredCopy, "the deferred copy stored");
    expect({
      retryLimit: stored?.retryLimit,
      retryDelay: stored?.retryDelay,
      retryBackoff: stored?.retryBackoff,
      expireInSeconds: stored?.expireInSeconds,
      deleteAfterSeconds: stored?.deleteAfterSeconds,
    }).toEqual({ retryLimit: 5, retryDelay: 7, retryBackoff: true, expireInSeconds: 600, deleteAfterSeconds: 7200 });
  } finally {
    release();
    await worker.close();
  }
});
