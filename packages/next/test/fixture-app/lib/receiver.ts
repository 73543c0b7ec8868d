import { createReceiver } from "@tidings/core";

/** Each route bundle gets its own receiver (and so its own in-memory dedup store). */
export function fixtureReceiver(maxBodyBytes?: number) {
  const secret = process.env.TIDINGS_FIXTURE_SECRET;
  if (!secret) throw new Error("TIDINGS_FIXTURE_SECRET is not set");
  return createReceiver({ secret, ...(maxBodyBytes ? { maxBodyBytes } : {}) });
}
