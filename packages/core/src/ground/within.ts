import { startSharedDeadline } from "./shared-deadline";

/**
 * Fails an engine call that has not settled within `ms` (up to an eighth more): a client that queues commands while
 * its server is down must not hold the sender's request forever. `describe` names the call in the error, and is
 * asked only when the time runs out.
 *
 * @example
 * ```ts
 * import { within } from "@tidings/core/dispatch";
 * import { Queue } from "bullmq";
 *
 * const queue = new Queue("deliveries", { connection: { host: "127.0.0.1", port: 6379 } });
 *
 * // ioredis queues commands while Redis is down: bound the add, so the sender is answered 5xx and retries.
 * await within(queue.add("message.sent", { id: "evt_1" }), 5000, () => "Adding the job to BullMQ queue deliveries");
 * ```
 */
export function within<T>(operation: PromiseLike<T>, ms: number, describe: () => string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const deadline = startSharedDeadline(ms, () => reject(new Error(`${describe()} did not complete within ${ms} ms`)));
    operation.then(
      (value) => {
        deadline.clear();
        resolve(value);
      },
      (error: unknown) => {
        deadline.clear();
        reject(error);
      },
    );
  });
}
