import { type DeliveryEvent, parseEvent } from "../event";
import type { Secret } from "./secrets";
import type { SignatureHeaderInput } from "./signature-header";
import { parseVerifyArguments } from "./signed-delivery";
import type { VerifyOptions } from "./tolerance";
import { matchSignatureSync } from "./verify";
import { matchSignature } from "./verify-async";

/** Verifies, then parses the body as a JSON object. The type parameter is an assertion about your payloads. */
export function constructEvent<Event extends object = DeliveryEvent>(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options?: VerifyOptions,
): Event {
  const delivery = parseVerifyArguments(payload, header, secret, options);
  matchSignatureSync(delivery, options, "constructEvent");
  return parseEvent(delivery.content.payload) as Event;
}

/** `constructEvent` for every runtime (see `verifyAsync`). */
export async function constructEventAsync<Event extends object = DeliveryEvent>(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options?: VerifyOptions,
): Promise<Event> {
  const delivery = parseVerifyArguments(payload, header, secret, options);
  await matchSignature(delivery, options);
  return parseEvent(delivery.content.payload) as Event;
}
