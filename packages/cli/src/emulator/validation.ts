import type { Channel } from "../events";

import { type ApiError, apiError } from "./errors";
import { CHANNELS } from "./rules";

export interface MessageRequest {
  channel: Channel;
  to: string;
  body: string;
}

/** E.164: a plus sign, then 2 to 15 digits, the first not 0. */
const SMS_RECIPIENT = /^\+[1-9]\d{1,14}$/;
/** A plausible address, not RFC 5322: something@domain.tld with no spaces. */
const EMAIL_RECIPIENT = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Device tokens are opaque and differ by provider (APNs hex, FCM base64-like): printable, no spaces, ≤ 4096. */
const PUSH_RECIPIENT = /^[\x21-\x7e]{1,4096}$/;

const FIELDS = ["channel", "to", "body"] as const;

const missing = (field: string) => apiError(400, "missing_field", `"${field}" is required.`, field);
const invalid = (field: string, message: string) => apiError(400, "invalid_field", message, field);

function recipientError(channel: Channel, to: string): ApiError | undefined {
  if (channel === "sms" && !SMS_RECIPIENT.test(to)) {
    const hint = /^ \d/.test(to)
      ? ' It starts with a space: a "+" in a form body means a space, so encode it as %2B (curl --data-urlencode).'
      : "";
    return invalid("to", `For sms, "to" must be an international number: "+" and 2 to 15 digits.${hint}`);
  }
  if (channel === "email" && !EMAIL_RECIPIENT.test(to)) {
    return invalid("to", 'For email, "to" must be an address like "name@example.com".');
  }
  if (channel === "push" && !PUSH_RECIPIENT.test(to)) {
    return invalid("to", 'For push, "to" must be a device token: up to 4096 visible characters, no spaces.');
  }
  return undefined;
}

/** Checks the form fields in the order channel, to, body; the first problem is the answer. Other fields are ignored. */
export function validateMessage(form: URLSearchParams): { message: MessageRequest } | { error: ApiError } {
  for (const field of FIELDS) {
    const values = form.getAll(field);
    if (values.length === 0) return { error: missing(field) };
    if (values.length > 1) return { error: invalid(field, `"${field}" was given ${values.length} times.`) };
  }
  const channel = form.get("channel") ?? "";
  if (!(CHANNELS as readonly string[]).includes(channel)) {
    return { error: invalid("channel", `"channel" must be one of ${CHANNELS.join(", ")}.`) };
  }
  const to = form.get("to") ?? "";
  if (to === "") return { error: missing("to") };
  const toError = recipientError(channel as Channel, to);
  if (toError) return { error: toError };
  const body = form.get("body") ?? "";
  if (body.trim() === "") return { error: invalid("body", '"body" must contain some text.') };
  return { message: { channel: channel as Channel, to, body } };
}
