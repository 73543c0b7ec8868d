import { MESSAGE_EVENT_TYPES } from "@tidings/core";
import { createWorker } from "@tidings/pg-boss";
import type { PgBoss } from "pg-boss";
import { formatEvent } from "../shared/message-log";
import { saveEvent } from "./messages";

export interface WorkerOptions {
  boss: PgBoss;
  queue: string;
  log?: (line: string) => void;
}

/** The worker process: the same typed handlers a Receiver takes, run from the queue with retries. */
export function startWorker({ boss, queue, log = console.log }: WorkerOptions) {
  const worker = createWorker({ boss, queue, concurrency: 8, pgBoss: { pollingIntervalSeconds: 0.5 } });
  worker.on(MESSAGE_EVENT_TYPES, async (event, context) => {
    await saveEvent(boss, event, context.deliveryKey);
    log(formatEvent(event));
  });
  worker.onError((error, info) => console.error(`[worker] job ${info.jobId}, run ${info.attempt}:`, error));
  return worker;
}
