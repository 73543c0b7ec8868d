import { WebhookVerificationError } from "../errors";

/** A body another layer consumed or parsed: a mounting mistake that `fix` tells the integrator how to correct. */
export function bodyAlreadyConsumed(fix: string): WebhookVerificationError {
  return new WebhookVerificationError(
    "body_already_parsed",
    `Another middleware read the request body first, so the signed bytes are gone. ${fix}`,
  );
}
