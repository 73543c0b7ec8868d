import type { Scheme } from "@tidings/core/schemes";
import { randomId } from "../ids";
import { sampleDelivery, signSample } from "../schemes";
import { otherSecret } from "./other-secret";
import type { Probe, ProbeContext, ProbeRequest, SkippedProbe } from "./probes";
import type { SchemeTraits } from "./scheme-traits";

const encoder = new TextEncoder();

interface Signing {
  /** When the delivery is signed, and its sample's time (Linear's is in the body). */
  timestamp?: number;
  secret?: string;
  /** Replaces the signature header's value. */
  signature?: (valid: string) => string;
  omitSignature?: boolean;
}

/** A fresh delivery shaped as the scheme's sender shapes it, signed its way, then changed as asked. */
function delivery(scheme: Scheme, context: ProbeContext, signing: Signing = {}): ProbeRequest {
  const id = randomId("evt_");
  const timestamp = signing.timestamp ?? context.now;
  const sample = sampleDelivery(scheme, id, timestamp);
  const secret = signing.secret ?? context.secret;
  const change = signing.omitSignature ? () => undefined : signing.signature;
  const { body, headers } = signSample(scheme, sample, secret, { timestamp, id, url: context.url }, change);
  if (!sample.signBody) {
    const valid = headers[scheme.signatureHeader] as string;
    if (signing.omitSignature) delete headers[scheme.signatureHeader];
    else if (signing.signature) headers[scheme.signatureHeader] = signing.signature(valid);
  }
  return { method: "POST", headers, body: encoder.encode(body) };
}

const minutes = (seconds: number) => `${Math.round(seconds / 60)} minutes`;

/** Probes of the signed time, `window` + 1 minute off on either side. */
function timeProbes(scheme: Scheme, window: number): Probe[] {
  const offset = window + 60;
  const refuse = `refuse a delivery signed more than ${minutes(window)} away from now`;
  return [
    {
      name: "timestamp-old",
      title: `a timestamp ${minutes(offset)} old`,
      expect: "4xx",
      hint: `The timestamp window is not checked: ${refuse}, so a captured one cannot be replayed later.`,
      request: (context) => delivery(scheme, context, { timestamp: context.now - offset }),
    },
    {
      name: "timestamp-future",
      title: `a timestamp ${minutes(offset)} ahead`,
      expect: "4xx",
      hint: `A timestamp from the future was accepted: bound the window on both sides (${refuse}).`,
      request: (context) => delivery(scheme, context, { timestamp: context.now + offset }),
    },
  ];
}

/**
 * The same probes as for the service's scheme, in another sender's format: the time probes only where it signs one,
 * the tampered body only where the secret covers the body (not a token's).
 */
export function createSchemeProbes(scheme: Scheme, traits: SchemeTraits): Probe[] {
  const header = traits.signsInBody ? "signature in the body" : `${scheme.signatureHeader} header`;
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
      hint: `A delivery signed the ${scheme.name} way was refused. Check the secret given to --secret (written as the sender writes it; the private key for a public-key sender), that the URL is the webhook route, and that the receiver verifies the raw body.`,
      request: validOnce,
    },
    {
      name: "duplicate",
      title: "the same delivery again",
      expect: "2xx",
      hint: "Senders deliver an event more than once. Acknowledge a repeat with 2xx (deduplicate by its id), or the sender keeps retrying it.",
      request: validOnce,
    },
  ];
  if (traits.coversBody) {
    probes.push({
      name: "tampered-body",
      title: "a body changed after signing",
      expect: "4xx",
      hint: "A body that does not match its signature was accepted: verify the signature over the raw body.",
      request: (context) => {
        const signed = delivery(scheme, context);
        // A trailing space: still JSON (or a form) the receiver could parse, no longer the bytes signed.
        return { ...signed, body: encoder.encode(`${new TextDecoder().decode(signed.body)} `) };
      },
    });
  }
  probes.push(
    {
      name: "wrong-secret",
      title: "a signature made with another secret",
      expect: "4xx",
      hint: "A delivery signed with another secret was accepted: check the signature against the endpoint's secret.",
      request: (context) =>
        delivery(scheme, context, {
          secret: otherSecret(context.secret, (secret) =>
            signSample(scheme, sampleDelivery(scheme, "evt_other", context.now), secret, {
              timestamp: context.now,
              id: "evt_other",
              url: context.url,
            }),
          ),
        }),
    },
    {
      name: "missing-header",
      title: `no ${header}`,
      expect: "4xx",
      hint: `An unsigned delivery was accepted: refuse a request without the ${header} with 400.`,
      request: (context) => delivery(scheme, context, { omitSignature: true }),
    },
    {
      name: "malformed-header",
      title: `a malformed ${header}`,
      expect: "4xx",
      hint: `A ${header} that cannot be parsed must be refused with 400: neither accepted nor a crash.`,
      request: (context) => delivery(scheme, context, { signature: () => "yesterday,not-a-signature" }),
    },
  );
  if (traits.windowSeconds !== undefined) probes.push(...timeProbes(scheme, traits.windowSeconds));
  probes.push({
    name: "get",
    title: "a GET request",
    expect: "not 2xx",
    hint: "The webhook route answers GET with 2xx: answer 405 to anything but POST (or a sender's own GET challenge).",
    request: () => ({ method: "GET", headers: {} }),
  });
  return probes;
}

/** The probes a scheme cannot be held to, and why: the report card says so rather than leaving them out silently. */
export function skippedSchemeProbes(scheme: Scheme, traits: SchemeTraits): SkippedProbe[] {
  const skipped: SkippedProbe[] = [];
  if (!traits.coversBody) {
    skipped.push({
      name: "tampered-body",
      title: "a body changed after signing",
      reason: traits.signsInBody
        ? `${scheme.name} signs some fields inside the body, not its bytes: a change elsewhere cannot be told`
        : `${scheme.name} sends a shared secret, not a signature: it covers no byte of the body, so no receiver can tell a changed one`,
    });
  }
  if (traits.windowSeconds === undefined) {
    skipped.push({
      name: "timestamp",
      title: "a timestamp outside the window",
      reason: `${scheme.name} signs no time: a captured delivery can be sent again until the receiver forgets its dedup key`,
    });
  }
  return skipped;
}
