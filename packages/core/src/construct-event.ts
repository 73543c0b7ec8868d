import { type DeliveryEvent, parseEvent } from "./event";
import type { SignatureHeaderInput } from "./header";
import type { Secret } from "./secrets";
import type { VerifyOptions } from "./tolerance";
import { prepareVerification } from "./verification";
import { checkPreparedSync } from "./verify";
import { checkPrepared } from "./verify-async";

/** Verifies, then parses the body as a JSON object. The type parameter is an assertion about your payloads. */
export function constructEvent<Event extends object = DeliveryEvent>(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options?: VerifyOptions,
): Event {
  const prepared = prepareVerification(payload, header, secret, options);
  checkPreparedSync(prepared, options, "constructEvent");
  return parseEvent(prepared.content.payload) as Event;
}

/** `constructEvent` for every runtime (see `verifyAsync`). */
export async function constructEventAsync<Event extends object = DeliveryEvent>(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options?: VerifyOptions,
): Promise<Event> {
  const prepared = prepareVerification(payload, header, secret, options);
  await checkPrepared(prepared, options);
  return parseEvent(prepared.content.payload) as Event;
}
