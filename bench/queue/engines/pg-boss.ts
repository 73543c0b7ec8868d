import { createWorker, type EnqueueTarget, enqueueTo, jobIdFor } from "@tidings/pg-boss";
import { type Job, PgBoss } from "pg-boss";
import type { EngineClient } from "./engine";
import { WriteCounts } from "./writes";

/** What `enqueueTo` sets by default, written out as a hand-written route would. */
const SEND_OPTIONS = {
  retryLimit: 4,
  retryDelay: 1,
  retryBackoff: true,
  expireInSeconds: 900,
  deleteAfterSeconds: 604_800,
};
/** pg-boss's least: a worker that finds fewer jobs than it asked for waits this long before it polls again. */
const POLLING_INTERVAL_SECONDS = 0.5;

export async function openPgBoss(): Promise<EngineClient> {
  // No maintenance or cron: their periodic queries would land in random counting windows.
  const boss = new PgBoss({ connectionString: process.env.POSTGRES_URL as string, supervise: false, schedule: false });
  boss.on("error", (error) => console.error("[bench] pg-boss:", error));
  await boss.start();
  const writes = new WriteCounts();
  // What enqueueTo calls on the boss, each write counted on its queue.
  const counted: EnqueueTarget["boss"] = {
    send: ((name: string, data: object, options: object) => {
      writes.note(name, 1);
      return boss.send(name, data, options);
    }) as PgBoss["send"],
    insert: ((name: string, jobs: unknown[], options?: object) => {
      writes.note(name, jobs.length);
      return boss.insert(name, jobs as Parameters<PgBoss["insert"]>[1], options);
    }) as PgBoss["insert"],
    createQueue: (name, options) => boss.createQueue(name, options),
  };
  return {
    enqueueTo: (name, options) => enqueueTo({ boss: counted, queue: name }, options),
    async idealSender(name) {
      await boss.createQueue(name);
      return (job) => {
        writes.note(name, 1);
        return boss.send(name, job, { ...SEND_OPTIONS, id: jobIdFor(job.deliveryKey) });
      };
    },
    async startWorker(kind, name, concurrency, handler) {
      if (kind === "ours") {
        const worker = createWorker({
          boss,
          queue: name,
          concurrency,
          pgBoss: { pollingIntervalSeconds: POLLING_INTERVAL_SECONDS },
        });
        worker.onAny(handler);
        await worker.ready;
        return;
      }
      // The options createWorker passes, and per-job results as it returns them.
      const options = {
        batchSize: concurrency,
        perJobResults: true,
        burstWhenBatchFull: true,
        pollingIntervalSeconds: POLLING_INTERVAL_SECONDS,
      } as const;
      await boss.createQueue(name);
      await boss.work<{ event: unknown }, unknown, typeof options>(name, options, (jobs: Job<{ event: unknown }>[]) =>
        Promise.all(
          jobs.map(async (job) => {
            await handler(job.data.event);
            return { id: job.id, status: "completed" as const };
          }),
        ),
      );
    },
    async jobs(name) {
      const { rows } = await boss
        .getDb()
        .executeSql("SELECT count(*)::int AS count FROM pgboss.job WHERE name = $1", [name]);
      return (rows[0] as { count: number }).count;
    },
    writes: (name) => writes.of(name),
  };
}
