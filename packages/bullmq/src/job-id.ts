import { LONE_SURROGATE } from "@tidings/core/dispatch";

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/**
 * The BullMQ job id of a delivery: its dedup key with `%` and `:` percent-encoded, since BullMQ refuses custom ids
 * that contain `:`, and each lone surrogate written `%uXXXX`, since Redis would get U+FFFD for any of them. The same
 * on every receiver instance and one-to-one, so the engine itself refuses a second job for an event, and never takes
 * one event for another; readable, so `tidings queue failed` shows which event a job is.
 *
 * @example
 * ```ts
 * import { jobIdFor } from "@tidings/bullmq";
 * import { Queue } from "bullmq";
 *
 * jobIdFor("event:evt_123"); // "event%3Aevt_123"
 *
 * // The job of a delivery a log line names, read with BullMQ itself.
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 * const job = await queue.getJob(jobIdFor("event:evt_123"));
 * console.log(job ? `${job.name}: ${await job.getState()}, ${job.attemptsMade} failed run(s)` : "no job for it");
 * await queue.close();
 * ```
 */
export function jobIdFor(deliveryKey: string): string {
  return deliveryKey
    .replaceAll("%", "%25")
    .replaceAll(":", "%3A")
    .replace(LONE_SURROGATES, (unit) => `%u${unit.charCodeAt(0).toString(16).toUpperCase()}`);
}
