import { createWorker, type EnqueueTarget, enqueueTo, jobIdFor } from "@tidings/bullmq";
import { type Job, Queue, Worker } from "bullmq";
import type { EngineClient } from "./engine";
import { WriteCounts } from "./writes";

/** What `enqueueTo` sets by default, written out as a hand-written route would. */
const JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: "exponential", delay: 1000 },
  removeOnComplete: { age: 86_400 },
  removeOnFail: false,
};

export function openBullmq(): EngineClient {
  const connection = { host: "127.0.0.1", port: Number(process.env.REDIS_PORT) };
  const queues = new Map<string, Queue>();
  const queue = (name: string) => {
    const existing = queues.get(name);
    if (existing) return existing;
    const created = new Queue(name, { connection });
    queues.set(name, created);
    return created;
  };
  const writes = new WriteCounts();
  const counted = (name: string): EnqueueTarget => {
    const target = queue(name);
    return {
      name,
      add(type, data, options) {
        writes.note(name, 1);
        return target.add(type, data, options);
      },
      addBulk(jobs) {
        writes.note(name, jobs.length);
        return target.addBulk(jobs);
      },
    };
  };
  return {
    enqueueTo: (name, options) => enqueueTo(counted(name), options),
    async idealSender(name) {
      const target = queue(name);
      return (job) => {
        writes.note(name, 1);
        return target.add(job.type, job, { ...JOB_OPTIONS, jobId: jobIdFor(job.deliveryKey) });
      };
    },
    async startWorker(kind, name, concurrency, handler) {
      if (kind === "ours") {
        const worker = createWorker({ queue: name, connection, concurrency });
        worker.onAny(handler);
        await worker.ready;
        return;
      }
      const worker = new Worker(name, async (job: Job) => handler(job.data.event), { connection, concurrency });
      await worker.waitUntilReady();
    },
    async jobs(name) {
      const counts = await queue(name).getJobCounts();
      return Object.values(counts).reduce((sum, count) => sum + count, 0);
    },
    writes: (name) => writes.of(name),
  };
}
