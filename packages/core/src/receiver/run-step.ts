import type { EventMap } from "../event-map";
import { TIMED_OUT, withTimeLimit } from "../ground/time-limit";
import { errorResult, RETRY_LATER, type ReceiveResult } from "../http/result";
import { renewWhileRunning } from "../store/lease-renewal";
import type { Claimed } from "./claim-step";
import type { Dispatcher } from "./dispatcher";
import type { DeliveryContext } from "./handlers";
import type { ReceiverParts } from "./pipeline";
import { settleClaim } from "./settle-step";
import type { Trace } from "./trace";
import { runInTransaction } from "./transaction-step";

/**
 * Runs the handlers of a claimed delivery, renewing the claim while they run, then settles it. Only the handlers are
 * timed: 503 if they outlast `handlerTimeoutMs`; settling the claim after they succeeded has its own bound. With
 * `transactions`, they run in the delivery's transaction with its done mark instead.
 */
export function runHandlers(
  parts: ReceiverParts,
  handlers: Pick<Dispatcher<EventMap, DeliveryContext>, "dispatch">,
  event: unknown,
  context: DeliveryContext,
  claim: Claimed,
  trace: Trace | undefined,
): ReceiveResult | Promise<ReceiveResult> {
  const joined = parts.options.transactions;
  if (joined) return runInTransaction(parts, handlers, joined, event, context, claim, trace);
  const running = handlers.dispatch(event, context, trace?.handlers);
  if (!(running instanceof Promise)) return settleClaim(parts, running, event, context, claim);
  const { options, reporter } = parts;
  // The claim stays held until the handlers settle (then it is completed or released as usual), so a retry answered
  // meanwhile gets 409 and never runs them a second time alongside.
  const renewal = renewWhileRunning(options.store, context.deliveryKey, claim.token, options.leaseMs, claim.order);
  const settled = running.then((failures) => {
    renewal.stop();
    return settleClaim(parts, failures, event, context, claim);
  });
  return withTimeLimit<unknown>(running, options.handlerTimeoutMs, () => TIMED_OUT).then((ran) => {
    if (ran !== TIMED_OUT) return settled;
    const error = new Error(`Handlers still running after ${options.handlerTimeoutMs} ms (handlerTimeoutMs).`);
    reporter.report(error, { code: "handler_timeout", event, context });
    return errorResult("handler_timeout", "The handlers did not finish in time; retry later.", RETRY_LATER);
  });
}
