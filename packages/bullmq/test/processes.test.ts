import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Queue } from "bullmq";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  deliverEvents,
  eventIds,
  type FixtureProcess,
  readHandled,
  startFixture,
} from "../../../test/support/queue-scenarios";
import { RedisServer } from "../../../test/support/redis-server";

const RECEIVER = fileURLToPath(new URL("fixtures/receiver.ts", import.meta.url));
const WORKER = fileURLToPath(new URL("fixtures/worker.ts", import.meta.url));

let redis: RedisServer;
const started: FixtureProcess[] = [];

beforeAll(async () => {
  redis = await RedisServer.start();
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((process) => process.stop("SIGKILL")));
});
afterAll(async () => {
  await redis.stop();
});

function scenario(name: string) {
  const handledLog = join(mkdtempSync(join(tmpdir(), "tidings-bullmq-")), "handled.jsonl");
  const env = { REDIS_PORT: String(redis.port), QUEUE: name, HANDLED_LOG: handledLog };
  const start = async (script: string, extra: Record<string, string> = {}) => {
    const process = await startFixture(script, { ...env, ...extra });
    started.push(process);
    return process;
  };
  return {
    handledLog,
    receivers: (count: number) =>
      Promise.all(Array.from({ length: count }, () => start(RECEIVER))).then((list) =>
        list.map((receiver) => `http://127.0.0.1:${receiver.ready.port}/webhooks`),
      ),
    worker: (extra?: Record<string, string>) => start(WORKER, extra),
    async jobCount() {
      const queue = new Queue(name, { connection: { host: "127.0.0.1", port: redis.port } });
      const counts = await queue.getJobCounts();
      await queue.close();
      return Object.values(counts).reduce((sum, count) => sum + count, 0);
    },
  };
}

describe("BullMQ hand-off across processes", () => {
  it("2 receivers × 2 workers, 500 events each delivered 3 times at once: exactly 500 jobs, each event handled once", async () => {
    const run = scenario("fanout");
    const urls = await run.receivers(2);
    await Promise.all([run.worker(), run.worker()]);
    const ids = eventIds("evt_fan", 500);
    const statuses = await deliverEvents(urls, ids, { copies: 3 });
    expect(statuses.filter((status) => status === 200).length).toBe(1500);
    await expect.poll(() => readHandled(run.handledLog).length, { timeout: 60_000 }).toBe(500);
    const handled = readHandled(run.handledLog);
    expect(new Set(handled.map((record) => record.id)).size).toBe(500);
    expect(new Set(handled.map((record) => record.pid)).size).toBe(2);
    expect(await run.jobCount()).toBe(500);
  });

  it("a worker SIGKILLed mid-run: its jobs run again on the other worker, every event handled", async () => {
    const run = scenario("sigkill");
    const [url] = await run.receivers(1);
    const doomed = await run.worker({ WORK_MS: "50", CONCURRENCY: "4" });
    const ids = eventIds("evt_kill", 200);
    await deliverEvents([url as string], ids);
    await expect.poll(() => readHandled(run.handledLog).length, { timeout: 30_000 }).toBeGreaterThan(10);
    await doomed.stop("SIGKILL");
    const killedAfter = readHandled(run.handledLog).length;
    expect(killedAfter).toBeLessThan(200);
    const survivor = await run.worker({ CONCURRENCY: "8" });
    await expect
      .poll(() => new Set(readHandled(run.handledLog).map((record) => record.id)).size, { timeout: 60_000 })
      .toBe(200);
    const bySurvivor = readHandled(run.handledLog).filter((record) => record.pid === survivor.pid);
    expect(bySurvivor.length).toBeGreaterThanOrEqual(200 - killedAfter);
    // The jobs the killed worker held were taken back by stalled-job recovery: their second run.
    expect(bySurvivor.some((record) => record.attempt === 2)).toBe(true);
    expect(await run.jobCount()).toBe(200);
  });

  it("Redis stopped during delivery: 5xx while it is down, then the sender's retries get every event handled", async () => {
    const run = scenario("outage");
    const urls = await run.receivers(2);
    await run.worker();
    const ids = eventIds("evt_outage", 100);
    const first = await deliverEvents(urls, ids.slice(0, 50));
    await redis.stop();
    const during = deliverEvents(urls, ids.slice(50));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await redis.start();
    const statuses = [...first, ...(await during)];
    expect(statuses.filter((status) => status >= 500).length).toBeGreaterThan(0);
    await expect
      .poll(() => new Set(readHandled(run.handledLog).map((record) => record.id)).size, { timeout: 60_000 })
      .toBe(100);
    expect(await run.jobCount()).toBe(100);
  });
});
