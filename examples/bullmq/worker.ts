import { createWorker } from "@tidings/bullmq";
import { MESSAGE_EVENT_TYPES } from "@tidings/core";
import type { Redis } from "ioredis";
import { formatEvent } from "../shared/message-log";
import { saveEvent } from "./messages";

export interface WorkerOptions {
  /** Made with `maxRetriesPerRequest: null`, as BullMQ workers require. */
  redis: Redis;
  queue: string;
  log?: (line: string) => void;
}

/** The worker process: the same typed handlers a Receiver takes, run from the queue with retries. */
export function startWorker({ redis, queue, log = console.log }: WorkerOptions) {
  const worker = createWorker({ queue, connection: redis, concurrency: 8 });
  worker.on(MESSAGE_EVENT_TYPES, async (event, context) => {
    await saveEvent(redis, event, context.deliveryKey);
    log(formatEvent(event));
  });
  worker.onError((error, info) => console.error(`[worker] job ${info.jobId}, run ${info.attempt}:`, error));
  return worker;
}
