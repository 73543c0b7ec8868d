import type { ReceiveResult } from "../http/result";
import type { ResolvedReceiverOptions } from "./options";
import type { Reporter } from "./reporter";

/** What every step of a delivery reads: the Receiver's checked options, and where failures are told. */
export interface ReceiverParts {
  readonly options: ResolvedReceiverOptions;
  readonly reporter: Reporter;
}

/**
 * A step's value or the answer that ends the delivery, sync when its work is: with node:crypto, a synchronous store and
 * synchronous handlers, a delivery whose body is at hand runs in one turn.
 */
export type Step<T> = T | ReceiveResult | Promise<T | ReceiveResult>;

/** A result rather than a step's value: the delivery is answered with it. */
export function isAnswer(value: object): value is ReceiveResult {
  return "body" in value;
}
