/**
 * The work a sender's format forces on any verifier before its primitive, done the cheapest correct way with Node's
 * own APIs; each verification does it again, on the bytes received. One kind per format:
 * - a JSON body holding the signature (Mailgun, Adyen: a `signed body`) or the signed time (Linear's
 *   `webhookTimestamp`): the body decoded and parsed with `JSON.parse`, since the fields can be found in no other
 *   correct way;
 * - a signed form (Twilio, Plivo): the body parsed with `URLSearchParams`, its fields sorted by name (a repeated name's
 *   values sorted too, Twilio keeping distinct ones) and joined as name + value, which is what the HMAC covers;
 * - a JWT (QStash, Vonage): its header and claims decoded from base64url and parsed, since the algorithm and the body's
 *   hash are in them.
 * The parts read from headers and URLs (the URL, a nonce, the JWT's signing input) are still handed over ready-made.
 */
import type { SignedContent } from "@tidings/core/schemes";
import type { SchemeDelivery } from "./deliveries";

export interface ForcedWork {
  kind: string;
  /** The signed content the primitive then runs on; `work` rebuilds its signed bytes where it builds them. */
  content: SignedContent;
  work: () => void;
}

/** Senders whose signed time is a field of the JSON body. */
const TIME_IN_BODY = new Set(["linear"]);
/** Senders that sign a form's fields; `true`: a repeated name's equal values are signed once. */
const FORM_SIGNERS: Readonly<Record<string, boolean>> = { twilio: true, plivo: false };

const EMPTY = new Uint8Array(0);

/** The form's fields sorted by name (a repeated name's values sorted), each written name + value. */
function sortedForm(body: Buffer, distinct: boolean): string {
  const params = new URLSearchParams(body.toString());
  params.sort();
  let text = "";
  let name: string | undefined;
  let values: string[] = [];
  const flush = () => {
    if (name === undefined) return;
    if (values.length > 1) values = distinct ? [...new Set(values)].sort() : values.sort();
    for (const value of values) text += name + value;
  };
  for (const [field, value] of params) {
    if (field !== name) {
      flush();
      name = field;
      values = [];
    }
    values.push(value);
  }
  flush();
  return text;
}

const jsonOf = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString());

export function forcedWork(delivery: SchemeDelivery, content: SignedContent): ForcedWork | undefined {
  const { scheme, payload, shape } = delivery;
  if (shape === "signed body" || TIME_IN_BODY.has(scheme.name)) {
    return { kind: "JSON.parse of the body", content, work: () => JSON.parse(payload.toString()) };
  }
  const distinct = FORM_SIGNERS[scheme.name];
  if (shape === "form" && distinct !== undefined) {
    // The signed text around the form's string (the URL before it; Plivo's `.<nonce>` after it), as read made it.
    const signed = content.prefix + Buffer.from(content.payload).toString() + (content.suffix ?? "");
    const form = sortedForm(payload, distinct);
    const at = signed.indexOf(form);
    if (form === "" || at === -1)
      throw new Error(`${delivery.label}: the form's sorted fields are not in its signed bytes`);
    const [head, tail] = [signed.slice(0, at), signed.slice(at + form.length)];
    const built: SignedContent = { ...content, prefix: signed, payload: EMPTY, suffix: undefined };
    return {
      kind: "the form parsed and sorted",
      content: built,
      work: () => {
        built.prefix = head + sortedForm(payload, distinct) + tail;
      },
    };
  }
  if ("bodyHash" in content) {
    const [header = "", claims = ""] = content.prefix.split(".");
    return {
      kind: "the JWT decoded and parsed",
      content,
      work: () => {
        jsonOf(header);
        jsonOf(claims);
      },
    };
  }
  return undefined;
}
