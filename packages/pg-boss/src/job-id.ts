import { createHash } from "node:crypto";
import { isWellFormedText } from "@tidings/core/dispatch";

// The namespace of Tidings' job ids (a random UUID, fixed forever: changing it would change every job id).
const NAMESPACE = Buffer.from("3b0f9a6e5c2d4e1f8a7b6c5d4e3f2a1b", "hex");
/** Never in UTF-8: marks the hash input of a key that UTF-8 cannot encode, so it meets no UTF-8 key's input. */
const NOT_UTF8 = Buffer.from([0xff]);

/**
 * The pg-boss job id of a delivery: a name-based (version 5) UUID of its dedup key, the same on every receiver
 * instance, so a second `send` of the event adds nothing for as long as the job row is kept. (A `singletonKey`
 * only guards jobs still queued or active, not completed ones.) The name is the key's UTF-8 bytes; a key with a lone
 * surrogate, which UTF-8 would turn into U+FFFD, is named by a 0xFF byte and its UTF-16 code units instead, so two
 * keys never share an id.
 *
 * @example
 * ```ts
 * import { jobIdFor } from "@tidings/pg-boss";
 * import { PgBoss } from "pg-boss";
 *
 * const boss = new PgBoss(process.env.DATABASE_URL!);
 * boss.on("error", (error) => console.error(error.message));
 * await boss.start();
 * // The job of a delivery a log line names, read with pg-boss itself.
 * const job = await boss.getJobById("deliveries", jobIdFor("event:evt_123"));
 * console.log(job ? `${job.id}: ${job.state}, ${job.retryCount} retries` : "no job for it");
 * await boss.stop();
 * ```
 */
export function jobIdFor(deliveryKey: string): string {
  const hash = createHash("sha1").update(NAMESPACE);
  if (isWellFormedText(deliveryKey)) hash.update(deliveryKey);
  else hash.update(NOT_UTF8).update(Buffer.from(deliveryKey, "utf16le"));
  const bytes = hash.digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
