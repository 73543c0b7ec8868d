import { type FailedDelivery, type QueueAdmin, type QueueCounts, readableJobText } from "@tidings/core/dispatch";
import { type Job, Queue } from "bullmq";
import { Redis } from "ioredis";

/** The part of a BullMQ `Queue` that the operations below use. */
export type InspectedQueue = Pick<Queue, "getFailed" | "getJob" | "getJobCounts">;

/** Jobs that used up their attempts, oldest first: id, event type, runs, last error. */
export async function listFailed(queue: InspectedQueue, limit = 100): Promise<FailedDelivery[]> {
  const jobs = (await queue.getFailed(0, limit - 1)) as Job[];
  return jobs.map((job) => ({
    id: job.id ?? "",
    type: job.name,
    deliveryKey: readableJobText(String(job.data?.deliveryKey ?? "")),
    attempts: job.attemptsMade,
    error: job.failedReason,
    ...(job.finishedOn ? { failedAt: new Date(job.finishedOn) } : {}),
  }));
}

/** Moves failed jobs back to the queue with a fresh set of attempts; resolves to how many moved. */
export async function retryFailed(queue: InspectedQueue, ids: readonly string[] | "all"): Promise<number> {
  const jobs =
    ids === "all"
      ? ((await queue.getFailed()) as Job[])
      : ((await Promise.all(ids.map((id) => queue.getJob(id)))) as (Job | undefined)[]);
  let moved = 0;
  for (const job of jobs) {
    if (!job || !(await job.isFailed())) continue;
    await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
    moved++;
  }
  return moved;
}

export async function queueCounts(queue: InspectedQueue): Promise<QueueCounts> {
  const counts = await queue.getJobCounts("waiting", "delayed", "prioritized", "active", "completed", "failed");
  return {
    waiting: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
    active: counts.active ?? 0,
    completed: counts.completed ?? 0,
    failed: counts.failed ?? 0,
  };
}

/** `tidings queue` on a Redis URL: a connection and a Queue of its own, both closed by `close()`. */
export function openQueueAdmin({ redis, queue: name }: { redis: string; queue: string }): QueueAdmin {
  // One retry per command: an operator's command against an unreachable Redis fails instead of waiting.
  const connection = new Redis(redis, { maxRetriesPerRequest: 1, lazyConnect: true });
  const queue = new Queue(name, { connection });
  return {
    failed: (limit) => listFailed(queue, limit),
    retry: (ids) => retryFailed(queue, ids),
    stats: () => queueCounts(queue),
    close: async () => {
      await queue.close();
      connection.disconnect();
    },
  };
}
