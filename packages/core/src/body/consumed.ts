import { WebhookVerificationError } from "../errors";

/** A body another layer consumed or parsed: a mounting mistake that `fix` tells the integrator how to correct. */
export function bodyAlreadyConsumed(fix: string): WebhookVerificationError {
  return new WebhookVerificationError(
    "body_already_parsed",
    `The request body was already read by another middleware before the webhook handler, so its exact bytes are gone and the signature cannot be checked. ${fix}`,
  );
}
