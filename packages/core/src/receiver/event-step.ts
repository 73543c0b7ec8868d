import { WebhookVerificationError } from "../errors";
import { type DeliveryEvent, parseEvent } from "../event";
import type { HeaderSource } from "../http/headers";
import type { ReceiveResult } from "../http/result";
import type { ReceiverParts, Step } from "./pipeline";
import { validateEvent } from "./validation";
import type { Verified } from "./verify-step";

/** A verified delivery's event as its scheme reads it, before validation. */
export interface ReadEvent {
  parsed: DeliveryEvent;
  type: string;
  id: string | undefined;
}

/** The value handlers get: wrapped, as an event is a JSON object, which could look like an answer. */
export interface EventValue {
  value: unknown;
}

/** The event's JSON, type and id, or the answer: a handshake the scheme answers itself (Slack's url_verification). */
export function readEvent(
  { options, reporter }: ReceiverParts,
  { signed, verified }: Verified,
  body: Uint8Array,
  headers: HeaderSource,
): ReadEvent | ReceiveResult {
  const { scheme } = signed;
  let parsed: DeliveryEvent | undefined;
  try {
    parsed = scheme.parse ? scheme.parse(body, headers) : parseEvent(body);
    const answer = scheme.respond?.(parsed, { secret: signed.secrets[verified.secretIndex] as string });
    if (answer) return answer;
    const type = (options.typeOf ?? scheme.typeOf)(parsed, headers);
    if (type === undefined) throw new WebhookVerificationError("invalid_payload", "The event has no string `type`.");
    return { parsed, type, id: (options.idOf ?? scheme.idOf)(parsed, body, headers) };
  } catch (error) {
    return reporter.failure(error, { event: parsed });
  }
}

/** The event after its type's schema, if it has one (Standard Schema): the value handlers get, or the 400. */
export function validated({ options, reporter }: ReceiverParts, { parsed, type }: ReadEvent): Step<EventValue> {
  const schema = options.schemas.get(type);
  if (!schema) return { value: parsed };
  // A validator that throws is a failure of the app's code: 500, like a throwing `typeOf`.
  return validateEvent(schema, parsed, type).then(
    (checked) => ("error" in checked ? reporter.failure(checked.error, { event: parsed }, checked.issues) : checked),
    (error: unknown) => reporter.failure(error, { event: parsed }),
  );
}
