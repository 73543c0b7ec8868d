/**
 * The BullMQ job id of a delivery: its dedup key with `%` and `:` percent-encoded, since BullMQ refuses custom ids
 * that contain `:`. The same on every receiver instance and one-to-one, so the engine itself refuses a second job
 * for an event; readable, so `tidings queue failed` shows which event a job is.
 */
export function jobIdFor(deliveryKey: string): string {
  return deliveryKey.replaceAll("%", "%25").replaceAll(":", "%3A");
}
