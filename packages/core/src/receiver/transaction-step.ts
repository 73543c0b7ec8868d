import type { EventMap } from "../event-map";
import { TIMED_OUT, withTimeLimit } from "../ground/time-limit";
import { ACCEPTED, errorResult, RETRY_LATER, type ReceiveResult } from "../http/result";
import { renewWhileRunning } from "../store/lease-renewal";
import {
  HandlersFailed,
  LEASE_LAPSED,
  NotClaimed,
  type TransactionalStore,
  type Transactions,
} from "../store/transactions";
import { type Claimed, unclaimedAnswer } from "./claim-step";
import type { Dispatcher } from "./dispatcher";
import type { DeliveryContext } from "./handlers";
import type { ReceiverParts } from "./pipeline";
import { answerFor, settleClaim } from "./settle-step";
import type { Trace } from "./trace";

const TAKEN_OVER = "The claim ran out while the handlers ran; nothing was committed. Retry later.";
const NOT_COMMITTED = "The delivery's transaction did not commit; nothing was marked. Retry later.";

/**
 * Runs the handlers of a claimed delivery in one transaction with its done mark: the writes they make through
 * `ctx.transaction` and the mark (with `order`, the position) commit together, or roll back together. A claim left to
 * the transaction is taken there first, and is the mark; a claim taken before is renewed meanwhile and marked last.
 * After a commit there is nothing left to settle. Timed as the handlers alone are otherwise.
 */
export function runInTransaction(
  parts: ReceiverParts,
  handlers: Pick<Dispatcher<EventMap, DeliveryContext>, "dispatch">,
  joined: { run: Transactions<unknown>; store: TransactionalStore },
  event: unknown,
  context: DeliveryContext,
  claim: Claimed,
  trace: Trace | undefined,
): Promise<ReceiveResult> {
  const { options, reporter } = parts;
  const { deliveryKey } = context;
  const { store } = joined;
  const renewal = claim.inTransaction
    ? undefined
    : renewWhileRunning(options.store, deliveryKey, claim.token, options.leaseMs, claim.order);
  const committed = joined.run.run(async (transaction, statements) => {
    if (claim.inTransaction) {
      const state = await store.claimWithin(statements, deliveryKey, options.doneTtlMs);
      if (state !== "claimed") throw new NotClaimed(state);
    }
    const failures = await handlers.dispatch(event, { ...context, transaction } as DeliveryContext, trace?.handlers);
    if (failures.length > 0) throw new HandlersFailed(failures);
    if (claim.inTransaction) return;
    const held = await store.completeWithin(statements, deliveryKey, claim.token, options.doneTtlMs, claim.order);
    if (!held) throw LEASE_LAPSED;
  });
  const settled = committed.then(
    () => {
      renewal?.stop();
      return ACCEPTED;
    },
    (error: unknown) => {
      renewal?.stop();
      if (error instanceof NotClaimed) return unclaimedAnswer(error.state);
      if (error instanceof HandlersFailed) {
        // Rolled back with the handlers' writes, a claim taken in the transaction has nothing left to release.
        return claim.inTransaction
          ? answerFor(parts, error.failures, event, context)
          : settleClaim(parts, error.failures, event, context, claim);
      }
      if (error === LEASE_LAPSED) {
        reporter.logger.warn({
          message: `[tidings] The claim on ${deliveryKey} ran out while its handlers ran; their transaction rolled back.`,
          code: "lease_lost",
          type: context.type,
          deliveryKey,
        });
        return errorResult("delivery_in_progress", TAKEN_OVER, RETRY_LATER);
      }
      // BEGIN, the mark or COMMIT failed: released (refused, changing nothing, if the commit did happen), then 503.
      reporter.report(error, { code: "store_unavailable", event, context });
      const answer = () => errorResult("store_unavailable", NOT_COMMITTED, RETRY_LATER);
      if (claim.inTransaction) return answer();
      const { order, token } = claim;
      const ordered = order && options.order?.store;
      const release = () =>
        ordered ? ordered.releaseInOrder(deliveryKey, token, order) : options.store.release(deliveryKey, token);
      // Best effort: a claim left behind ends with its lease.
      return Promise.resolve().then(release).then(answer, answer);
    },
  );
  return withTimeLimit<ReceiveResult | typeof TIMED_OUT>(settled, options.handlerTimeoutMs, () => TIMED_OUT).then(
    (answer) => {
      if (answer !== TIMED_OUT) return answer;
      const error = new Error(`Handlers still running after ${options.handlerTimeoutMs} ms (handlerTimeoutMs).`);
      reporter.report(error, { code: "handler_timeout", event, context });
      return errorResult("handler_timeout", "The handlers did not finish in time; retry later.", RETRY_LATER);
    },
  );
}
