import { isPromiseLike } from "../ground/promise-like";
import { ACCEPTED, errorResult, type ReceiveResult } from "../http/result";
import { settleWithin } from "../store/settle-within";
import type { Claimed } from "./claim-step";
import type { DeliveryContext } from "./handlers";
import type { ReceiverParts } from "./pipeline";

const HANDLER_FAILED = "A handler failed; not marked done, so a retry runs it again.";

/**
 * Marks the delivery done (moving its object's position, with `order`), or releases it when a handler failed, and says
 * what to answer. Sync with a sync store. A store that fails is tried again for up to half the lease, a hang counting as
 * a failure; after handlers that succeeded the answer stays 200 even then, as answering 5xx would run them twice.
 */
export function settleClaim(
  parts: ReceiverParts,
  failures: unknown[],
  event: unknown,
  context: DeliveryContext,
  { token, order }: Claimed,
): ReceiveResult | Promise<ReceiveResult> {
  const { options, reporter } = parts;
  const { store, doneTtlMs, leaseMs } = options;
  const { deliveryKey } = context;
  const answer = () => answerFor(parts, failures, event, context);
  const storeFailed = (error: unknown) => {
    reporter.report(error, { code: "store_unavailable", status: failures.length > 0 ? 500 : 200, event, context });
    return answer();
  };
  const settled = (held: boolean) => {
    if (!held) leaseLost(parts, context, failures.length === 0);
    return answer();
  };
  const ordered = order && options.order?.store;
  // The position moves only when the handlers succeeded: a failed event's retry is not stale.
  const settle = () =>
    ordered
      ? failures.length > 0
        ? ordered.releaseInOrder(deliveryKey, token, order)
        : ordered.completeInOrder(deliveryKey, token, doneTtlMs, order)
      : failures.length > 0
        ? store.release(deliveryKey, token)
        : store.complete(deliveryKey, token, doneTtlMs);
  let settling: boolean | PromiseLike<boolean>;
  try {
    settling = settle();
  } catch (error) {
    // A store that throws at once is tried again as one that rejects.
    settling = Promise.reject(error);
  }
  if (!isPromiseLike(settling)) return settled(settling);
  return settleWithin(settling, settle, leaseMs / 2).then(settled, storeFailed);
}

/** 200, or the handlers' failures reported and answered 500. */
export function answerFor({ reporter }: ReceiverParts, failures: unknown[], event: unknown, context: DeliveryContext) {
  if (failures.length === 0) return ACCEPTED;
  for (const failure of failures) reporter.report(failure, { code: "handler_failed", event, context });
  return errorResult("handler_failed", HANDLER_FAILED);
}

/**
 * The store refused to settle the claim: its lease ran out while the handlers ran and could not be renewed (the store
 * unreachable, the process paused), so another holder may have taken the delivery or its object. Nothing was marked;
 * after handlers that succeeded, the answer stays 200, as their effects happened.
 */
function leaseLost({ reporter }: ReceiverParts, context: DeliveryContext, succeeded: boolean): void {
  reporter.logger.warn({
    message: `[tidings] The claim on ${context.deliveryKey} ran out while its handlers ran; ${succeeded ? "not marked done" : "not released"}.`,
    code: "lease_lost",
    type: context.type,
    deliveryKey: context.deliveryKey,
  });
}
