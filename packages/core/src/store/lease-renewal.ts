import { startSharedDeadline } from "../ground/shared-deadline";
import type { DeliveryStore, ObjectPosition } from "./delivery-store";

/** Renewals per lease: a renewal that fails is tried again twice before the lease can run out. */
const RENEWALS_PER_LEASE = 3;

/**
 * A claim kept alive while its handlers run: renewed every third of the lease, so handlers that outlast `leaseMs`
 * keep their delivery (and their object, with `order`) to themselves. Stops at the first renewal the store refuses
 * (the lease already ran out: another holder may have the key; the store then refuses to settle it too).
 */
export interface LeaseRenewal {
  /** The handlers settled: no more renewals. */
  stop(): void;
}

const NOTHING_TO_RENEW: LeaseRenewal = { stop() {} };

/**
 * Renews the claim `token` holds on `key` until stopped. A store without `renew` keeps its first lease only. A
 * renewal that throws (the store unreachable) is tried again at the next turn; the store's own
 * expiry decides whether the lease survives the outage.
 */
export function renewWhileRunning(
  store: DeliveryStore,
  key: string,
  token: string,
  leaseMs: number,
  order: ObjectPosition | undefined,
): LeaseRenewal {
  const renew = store.renew?.bind(store);
  if (renew === undefined) return NOTHING_TO_RENEW;
  const everyMs = Math.max(1, Math.floor(leaseMs / RENEWALS_PER_LEASE));
  let stopped = false;
  const next = (held: boolean) => {
    if (held && !stopped) deadline = startSharedDeadline(everyMs, turn);
    else stopped = true;
  };
  const turn = () => {
    if (stopped) return;
    let renewing: boolean | PromiseLike<boolean>;
    try {
      renewing = renew(key, token, leaseMs, order);
    } catch {
      renewing = true;
    }
    Promise.resolve(renewing).then(next, () => next(true));
  };
  let deadline = startSharedDeadline(everyMs, turn);
  return {
    stop() {
      stopped = true;
      deadline.clear();
    },
  };
}
