import { SIGNATURE_HEADER, sign } from "@tidings/core";
import { buildEvent } from "../events";

export type Expectation = "2xx" | "4xx" | "not 2xx";

export interface ProbeRequest {
  method: "POST" | "GET";
  headers: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
}

export interface ProbeContext {
  secret: string;
  /** Unix seconds, the sender's clock. */
  now: number;
  /** The size of the large-body probe, in bytes. */
  sizeBytes: number;
  /** The receiver's URL, which URL-signing senders sign. */
  url: string;
}

/**
 * A probe left out for a sender whose signature cannot support it (a token cannot tell a changed body), and why.
 *
 * @example
 * ```ts
 * import { runCheck } from "@tidings/cli";
 *
 * const report = await runCheck({
 *   url: "http://127.0.0.1:3000/webhooks/gitlab",
 *   secret: process.env.GITLAB_WEBHOOK_TOKEN!,
 *   sizeBytes: 1_000_000,
 *   warnMs: 10_000,
 *   timeoutMs: 15_000,
 *   scheme: "gitlab",
 * });
 * for (const { title, reason } of report.skipped) console.log(`not probed: ${title} (${reason})`);
 * ```
 */
export interface SkippedProbe {
  name: string;
  /** What would have been sent: "a body changed after signing". */
  title: string;
  reason: string;
}

export interface Probe {
  name: string;
  /** What is sent, for the report: "a timestamp 6 minutes old". */
  title: string;
  expect: Expectation;
  /** The likely cause of a failure, and its fix. */
  hint: string;
  request: (context: ProbeContext) => ProbeRequest;
}

/** Six minutes: one more than the spec's five-minute window, so a receiver with any sane clock must refuse it. */
const OUTSIDE_WINDOW_S = 6 * 60;
const encoder = new TextEncoder();

const post = (body: Uint8Array<ArrayBuffer>, signature?: string): ProbeRequest => ({
  method: "POST",
  headers: {
    "content-type": "application/json",
    ...(signature === undefined ? {} : { [SIGNATURE_HEADER]: signature }),
  },
  body,
});

const freshEvent = (data: Record<string, unknown> = {}) =>
  encoder.encode(JSON.stringify(buildEvent("message.delivered", data)));

const signed = (
  body: Uint8Array<ArrayBuffer>,
  context: ProbeContext,
  timestamp = context.now,
  secret = context.secret,
) => post(body, sign(body, secret, { timestamp }));

/**
 * A delivery laid out as no JSON serialiser would: a UTF-8 byte order mark, characters of two, three and four bytes,
 * indentation, spaces around colons and a trailing newline. Its signature holds only over these exact bytes.
 */
function unusualBody(): Uint8Array<ArrayBuffer> {
  const event = buildEvent("message.delivered", { note: "Grüße — 你好 — 👋" });
  const text = JSON.stringify(event, null, "\t").replaceAll('":', '" :');
  return encoder.encode(`\uFEFF${text}\r\n`);
}

/** A fresh delivery whose JSON is exactly `sizeBytes` long (a padding field), or as small as it can be. */
function bodyOfSize(sizeBytes: number): Uint8Array<ArrayBuffer> {
  const event = buildEvent("message.delivered", { padding: "" });
  const base = JSON.stringify(event).length;
  return encoder.encode(
    JSON.stringify({ ...event, data: { ...event.data, padding: "x".repeat(Math.max(0, sizeBytes - base)) } }),
  );
}

/** Every probe, in the order they run. Each builds its own fresh event, so no probe is another's duplicate. */
export function createProbes(): Probe[] {
  // The valid delivery is sent twice, byte for byte and header for header: the second is a duplicate delivery.
  let valid: ProbeRequest | undefined;
  const validOnce = (context: ProbeContext) => {
    valid ??= signed(freshEvent(), context);
    return valid;
  };
  return [
    {
      name: "valid",
      title: "a valid delivery",
      expect: "2xx",
      hint: "A correctly signed delivery was refused. Check that the receiver uses the secret given to --secret, that --url is its webhook route, and that it verifies the raw body (mounted before any JSON body parser).",
      request: validOnce,
    },
    {
      name: "duplicate",
      title: "the same delivery again",
      expect: "2xx",
      hint: "The service may deliver an event twice. Acknowledge a repeat with 2xx (deduplicate by the event id), or the sender keeps retrying it.",
      request: validOnce,
    },
    {
      name: "tampered-body",
      title: "a body changed after signing",
      expect: "4xx",
      hint: "A body that does not match its signature was accepted: the receiver does not verify the HMAC over the raw body. Compute HMAC-SHA256 with the secret over t, a dot and the raw body, and compare it with every v1.",
      request: (context) => {
        const original = freshEvent({ status: "delivered" });
        const header = sign(original, context.secret, { timestamp: context.now });
        const tampered = encoder.encode(new TextDecoder().decode(original).replace('"delivered"', '"failed"'));
        return post(tampered, header);
      },
    },
    {
      name: "wrong-secret",
      title: "a signature made with another secret",
      expect: "4xx",
      hint: "A delivery signed with another secret was accepted: the receiver does not check the signature against its endpoint secret.",
      request: (context) => signed(freshEvent(), context, context.now, `${context.secret}_not_yours`),
    },
    {
      name: "missing-header",
      title: "no Service-Signature header",
      expect: "4xx",
      hint: "An unsigned delivery was accepted: refuse a request without the Service-Signature header with 400.",
      request: () => post(freshEvent()),
    },
    {
      name: "malformed-header",
      title: "a malformed Service-Signature header",
      expect: "4xx",
      hint: "A Service-Signature that cannot be parsed must be refused with 400: neither accepted nor a crash.",
      request: () => post(freshEvent(), "t=yesterday,v1=not-hex"),
    },
    {
      name: "timestamp-old",
      title: "a timestamp 6 minutes old",
      expect: "4xx",
      hint: "The timestamp window is not checked: refuse a t older than 5 minutes (the spec's limit), so a captured delivery cannot be replayed later.",
      request: (context) => signed(freshEvent(), context, context.now - OUTSIDE_WINDOW_S),
    },
    {
      name: "timestamp-future",
      title: "a timestamp 6 minutes ahead",
      expect: "4xx",
      hint: "A timestamp from the future was accepted: bound the window on both sides (|now − t| ≤ 300 s), or a forged-ahead signature stays replayable for longer than 5 minutes.",
      request: (context) => signed(freshEvent(), context, context.now + OUTSIDE_WINDOW_S),
    },
    {
      name: "several-v1",
      title: "several v1 signatures, one of them valid",
      expect: "2xx",
      hint: "The header may carry several v1 (the sender signs with more than one secret during a rotation): the delivery is valid when any of them matches, not only the first.",
      request: (context) => {
        const body = freshEvent();
        const header = sign(body, context.secret, { timestamp: context.now });
        const [t, v1] = header.split(",");
        return post(body, `${t},v1=${"0".repeat(64)},${v1},v1=${"f".repeat(64)}`);
      },
    },
    {
      name: "unusual-body",
      title: "a body with a BOM, multibyte characters and extra whitespace",
      expect: "2xx",
      hint: "The receiver verifies something other than the bytes received: re-serialised JSON (JSON.stringify(req.body)), or text decoded and re-encoded. Verify the raw body before any parser touches it.",
      request: (context) => signed(unusualBody(), context),
    },
    {
      name: "large-body",
      title: "a large body",
      expect: "2xx",
      hint: "A large delivery was refused: raise the receiver's body limit (express.json() allows 100 kB by default; Tidings' maxBodyBytes 1 MiB), or pass --size with the largest delivery you expect.",
      request: (context) => signed(bodyOfSize(context.sizeBytes), context),
    },
    {
      name: "get",
      title: "a GET request",
      expect: "not 2xx",
      hint: "The webhook route answers GET with 2xx: answer 405 to anything but POST, so no other request is mistaken for a delivery.",
      request: () => ({ method: "GET", headers: {} }),
    },
  ];
}
