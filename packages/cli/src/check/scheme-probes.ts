import type { Scheme } from "@tidings/core/schemes";
import { randomId } from "../ids";
import { sampleDelivery } from "../schemes";
import type { Probe, ProbeContext, ProbeRequest } from "./probes";

const OUTSIDE_WINDOW_S = 6 * 60;
const encoder = new TextEncoder();

interface Signing {
  timestamp?: number;
  secret?: string;
  body?: Uint8Array<ArrayBuffer>;
  /** Replaces the signature header's value. */
  signature?: (valid: string) => string;
  omitSignature?: boolean;
}

/** A fresh delivery shaped as the scheme's sender shapes it, signed its way, then changed as asked. */
function delivery(scheme: Scheme, context: ProbeContext, signing: Signing = {}): ProbeRequest {
  const id = randomId("evt_");
  const sample = sampleDelivery(scheme, id, context.now);
  const body = signing.body ?? encoder.encode(sample.body);
  const signed = scheme.sign(body, signing.secret ?? context.secret, {
    timestamp: signing.timestamp ?? context.now,
    id,
    url: context.url,
  });
  const headers: Record<string, string> = { "content-type": sample.contentType, ...sample.headers, ...signed };
  const valid = signed[scheme.signatureHeader] as string;
  if (signing.omitSignature) delete headers[scheme.signatureHeader];
  else if (signing.signature) headers[scheme.signatureHeader] = signing.signature(valid);
  return { method: "POST", headers, body };
}

/** The same probes as for the service's scheme, in another sender's format; the time probes only where it signs one. */
export function createSchemeProbes(scheme: Scheme, timed: boolean): Probe[] {
  const header = scheme.signatureHeader;
  let valid: ProbeRequest | undefined;
  const validOnce = (context: ProbeContext) => {
    valid ??= delivery(scheme, context);
    return valid;
  };
  const probes: Probe[] = [
    {
      name: "valid",
      title: `a valid ${scheme.name} delivery`,
      expect: "2xx",
      hint: `A delivery signed the ${scheme.name} way was refused. Check the secret given to --secret (written as the sender writes it), that --url is the webhook route, and that the receiver verifies the raw body.`,
      request: validOnce,
    },
    {
      name: "duplicate",
      title: "the same delivery again",
      expect: "2xx",
      hint: "Senders deliver an event more than once. Acknowledge a repeat with 2xx (deduplicate by its id), or the sender keeps retrying it.",
      request: validOnce,
    },
    {
      name: "tampered-body",
      title: "a body changed after signing",
      expect: "4xx",
      hint: "A body that does not match its signature was accepted: verify the HMAC over the raw body.",
      request: (context) => {
        const signed = delivery(scheme, context);
        // A trailing space: still JSON (or a form) the receiver could parse, no longer the bytes signed.
        return { ...signed, body: encoder.encode(`${new TextDecoder().decode(signed.body)} `) };
      },
    },
    {
      name: "wrong-secret",
      title: "a signature made with another secret",
      expect: "4xx",
      hint: "A delivery signed with another secret was accepted: check the signature against the endpoint's secret.",
      request: (context) =>
        delivery(scheme, context, {
          secret:
            context.secret.startsWith("whsec_") && scheme.name !== "stripe"
              ? "whsec_bm90IHlvdXJz"
              : `${context.secret}_not_yours`,
        }),
    },
    {
      name: "missing-header",
      title: `no ${header} header`,
      expect: "4xx",
      hint: `An unsigned delivery was accepted: refuse a request without the ${header} header with 400.`,
      request: (context) => delivery(scheme, context, { omitSignature: true }),
    },
    {
      name: "malformed-header",
      title: `a malformed ${header} header`,
      expect: "4xx",
      hint: `A ${header} that cannot be parsed must be refused with 400: neither accepted nor a crash.`,
      request: (context) => delivery(scheme, context, { signature: () => "yesterday,not-a-signature" }),
    },
  ];
  if (timed) {
    probes.push(
      {
        name: "timestamp-old",
        title: "a timestamp 6 minutes old",
        expect: "4xx",
        hint: "The timestamp window is not checked: refuse a delivery signed more than 5 minutes ago, so a captured one cannot be replayed later.",
        request: (context) => delivery(scheme, context, { timestamp: context.now - OUTSIDE_WINDOW_S }),
      },
      {
        name: "timestamp-future",
        title: "a timestamp 6 minutes ahead",
        expect: "4xx",
        hint: "A timestamp from the future was accepted: bound the window on both sides (|now − t| ≤ 300 s).",
        request: (context) => delivery(scheme, context, { timestamp: context.now + OUTSIDE_WINDOW_S }),
      },
    );
  }
  probes.push({
    name: "get",
    title: "a GET request",
    expect: "not 2xx",
    hint: "The webhook route answers GET with 2xx: answer 405 to anything but POST.",
    request: () => ({ method: "GET", headers: {} }),
  });
  return probes;
}
