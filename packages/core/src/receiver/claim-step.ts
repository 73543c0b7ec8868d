import { isPromiseLike } from "../ground/promise-like";
import { DUPLICATE, errorResult, RETRY_LATER, type ReceiveResult, STALE } from "../http/result";
import type { ObjectPosition, OrderedClaimResult } from "../store/delivery-store";
import { endpointKey } from "./delivery-key";
import type { DeliveryContext } from "./handlers";
import { claimInOrder, positionOf } from "./order";
import { isAnswer, type ReceiverParts, type Step } from "./pipeline";

const OBJECT_BUSY = { headers: { "retry-after": "2" } };
const STORE_FULL = "Too many deliveries in flight or recently handled to remember another; retry later.";

/**
 * A claim granted: its token, and (with `order`) where the event stands in its object's history. With `transactions`
 * and no position, the claim is left to the delivery's transaction (`inTransaction`): taken there as its first
 * statement, it is the done mark too, so it commits or rolls back with the handlers' writes.
 */
export interface Claimed {
  token: string;
  order: ObjectPosition | undefined;
  inTransaction?: true;
}

const LEFT_TO_TRANSACTION: Claimed = { token: "", order: undefined, inTransaction: true };

/**
 * Claims the delivery (and, with `order`, its object) in one store round trip: the claim, or the answer to a delivery
 * done before, held elsewhere, stale, busy, or refused by the store.
 */
export function claimDelivery(
  parts: ReceiverParts,
  event: unknown,
  context: DeliveryContext,
  dedupScope: string | undefined,
): Step<Claimed> {
  const order = positionIn(parts, event, dedupScope);
  if (order !== undefined && isAnswer(order)) return order;
  if (order === undefined && parts.options.transactions) return LEFT_TO_TRANSACTION;
  const { store, leaseMs, order: ordering, doneTtlMs } = parts.options;
  const granted = (claim: OrderedClaimResult) =>
    claim.state === "claimed" ? { token: claim.token, order } : unclaimedAnswer(claim.state);
  const refused = (error: unknown) => storeRefused(parts, error, event, context);
  try {
    const claiming =
      ordering && order
        ? claimInOrder(ordering.store, context.deliveryKey, leaseMs, order, doneTtlMs, ordering.waitMs)
        : store.claim(context.deliveryKey, leaseMs);
    return isPromiseLike(claiming) ? Promise.resolve(claiming).then(granted, refused) : granted(claiming);
  } catch (error) {
    return refused(error);
  }
}

/** Where an ordered event stands in its object's history, its object scoped as its dedup key is; 500 if `order` threw. */
function positionIn(
  { options, reporter }: ReceiverParts,
  event: unknown,
  dedupScope: string | undefined,
): ObjectPosition | ReceiveResult | undefined {
  const ordering = options.order;
  if (!ordering) return undefined;
  try {
    return positionOf(ordering.rule, event, (object) =>
      dedupScope === undefined ? object : endpointKey(dedupScope, object),
    );
  } catch (error) {
    return reporter.failure(error, { event });
  }
}

/** The answer to a delivery whose claim was not granted: done before, held by another request, stale, or busy. */
export function unclaimedAnswer(state: "done" | "in-flight" | "stale" | "busy"): ReceiveResult {
  if (state === "done") return DUPLICATE;
  if (state === "stale") return STALE;
  return state === "busy"
    ? errorResult("object_busy", "Another event of the same object is being handled; retry later.", OBJECT_BUSY)
    : errorResult("delivery_in_progress", "Being processed by another request; retry later.", RETRY_LATER);
}

function storeRefused({ reporter }: ReceiverParts, error: unknown, event: unknown, context: DeliveryContext) {
  if ((error as { code?: unknown } | null)?.code === "store_full") {
    // The store warned once when it filled up; one log line per refused delivery would flood the logs. By code,
    // not class: any store may refuse this way, and a second copy of core has a second class.
    reporter.report(error, { code: "store_full", event, context }, false);
    return errorResult("store_full", STORE_FULL, RETRY_LATER);
  }
  reporter.report(error, { code: "store_unavailable", event, context });
  return errorResult("store_unavailable", "Delivery store unreachable; nothing was processed.", RETRY_LATER);
}
