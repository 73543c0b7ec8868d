/**
 * The body of a sender that signs inside it (Mailgun, Adyen), signed with `secret` at `timestamp` by the sender's
 * documented algorithm; `change` rewrites the signature's value, or drops it where it returns undefined.
 */
export type BodySigner = (secret: string, timestamp: number, change?: (valid: string) => string | undefined) => string;

/** One delivery as a sender sends it: its body, content type, and the headers it sends besides the signature. */
export interface SampleDelivery {
  body: string;
  contentType: string;
  headers: Record<string, string>;
  /** For a sender that signs inside the body: the body, signed. `body` is then the body as it is before signing. */
  signBody?: BodySigner;
}

/**
 * How a sender's deliveries look, for `send` and `check --scheme`: an event of a type its users handle, shaped as the
 * sender shapes it (a GitHub `issues` event has an `issue`), with `id` as its dedup id and `now` as its time.
 */
export type SenderSample = (id: string, now: number) => SampleDelivery;

export const JSON_TYPE = "application/json";
export const FORM_TYPE = "application/x-www-form-urlencoded";

/** A JSON delivery: `body` serialized, with the sender's other headers. */
export const json = (body: unknown, headers: Record<string, string> = {}): SampleDelivery => ({
  body: JSON.stringify(body),
  contentType: JSON_TYPE,
  headers,
});

/** A form delivery, its fields in the order the sender writes them. */
export const form = (fields: Record<string, string>, headers: Record<string, string> = {}): SampleDelivery => ({
  body: new URLSearchParams(fields).toString(),
  contentType: FORM_TYPE,
  headers,
});

/** The id's letters and digits only, for senders whose ids have no other characters (Twilio's SIDs, LINE's ids). */
export const alphanumeric = (id: string): string => id.replace(/[^A-Za-z0-9]/g, "");

/** A number made of the id's last hex digits, for senders whose ids are numbers (`digits` hex digits at most 13). */
export const numberOf = (id: string, digits = 12): number => Number.parseInt(alphanumeric(id).slice(-digits), 16) || 1;

/** The id as a UUID's 8-4-4-4-12 groups, for senders whose ids are UUIDs: the id's hex digits, padded. */
export function uuidOf(id: string): string {
  const hex = alphanumeric(id)
    .replace(/[^0-9a-f]/gi, "")
    .slice(-32)
    .padStart(32, "0")
    .toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Unix seconds as an ISO 8601 time. */
export const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();

/** A snowflake-like id of digits made of the id's hex digits (Discord's ids are such strings). */
export const digitsOf = (id: string): string => BigInt(`0x${uuidOf(id).replaceAll("-", "").slice(-15)}`).toString();
