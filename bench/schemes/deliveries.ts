/**
 * One delivery per catalogue scheme and kind of secret, signed with the scheme's own `sign`. The secret, the key pair
 * (for a scheme that verifies with a public key) and the body's shape are found by trying each candidate until the
 * scheme's `sign` and `verify` agree, so a scheme added to the catalogue needs no code here. Only what `sign` cannot
 * make is written out, in `signed-bodies.ts`: the bodies of senders that sign inside the body.
 */
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import type { Scheme, SecretKind, SignedRequest } from "@tidings/core/schemes";
import { PEER_EVENT_TYPES } from "./peers";
import { padded, SIGNED_BODIES } from "./signed-bodies";

export interface SchemeDelivery {
  /** The scheme's name; a second kind of secret the scheme verifies is named after it: `standard-webhooks (ed25519)`. */
  label: string;
  scheme: Scheme;
  kind: SecretKind;
  payload: Buffer;
  headers: Record<string, string>;
  /** What the receiver verifies with; `signingSecret` is what signed (the private key, for a public-key scheme). */
  secret: string;
  signingSecret: string;
  /** The public key as a KeyObject, for the floor of a public-key scheme. */
  publicKey?: KeyObject | undefined;
  /** For a scheme that signs the URL and method (`readsRequest`). */
  request?: SignedRequest | undefined;
  shape: BodyShape;
  /** Unix seconds the delivery was signed at. */
  now: number;
}

export type BodyShape = "JSON object" | "JSON array" | "form" | "signed body";

/** Senders that post forms: a JSON body verifies with them too (as a form of one odd field), but is not what they send. */
const FORM_SENDERS = new Set(["twilio", "plivo"]);
const SHAPES: readonly BodyShape[] = ["JSON object", "JSON array", "form"];
const CONTENT_TYPES: Record<BodyShape, string> = {
  "JSON object": "application/json",
  "JSON array": "application/json",
  form: "application/x-www-form-urlencoded",
  "signed body": "application/json",
};

/** A body of `size` bytes with the fields senders commonly type and deduplicate by, and the times some sign inside. */
function bodyOf(shape: BodyShape, size: number, now: number, type: string): Buffer {
  const fields = `"id":"evt_bench","type":"${type}","event":"${type}","webhookTimestamp":${now * 1000},"data":{"id":"obj_bench","pad":"`;
  if (shape === "JSON object") return padded(size, `{${fields}`, `"}}`);
  if (shape === "JSON array") return padded(size, `[{${fields}`, `"}}]`);
  return padded(size, "MessageSid=SMbench&MessageStatus=delivered&From=%2B15550100&To=%2B15550199&Body=", "");
}

// Symmetric secrets, tried in order: text (what most senders hand out), `whsec_<base64>`, a hex key, Basic credentials,
// then each prefix the scheme's `about.secret` names (`pdl_ntfset_…`) before text.
const SECRETS = [
  "bench_webhook_secret_5f0c1e9a7b3d4c2e8f6a",
  "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  "5f0c1e9a7b3d4c2e8f6a1b0c9d8e7f6a5f0c1e9a7b3d4c2e8f6a1b0c9d8e7f6a",
  "bench-user:bench-password-5f0c1e9a",
];

interface KeyPair {
  signing: string;
  verifying: string;
  publicKey: KeyObject;
}

/** A public key pair written every way senders write theirs: prefixed base64, hex, base64, PEM, base64 DER. */
function keyPairs(): KeyPair[] {
  const pairs: KeyPair[] = [];
  const ed = generateKeyPairSync("ed25519");
  const seed = ed.privateKey.export({ format: "der", type: "pkcs8" }).subarray(16);
  const raw = ed.publicKey.export({ format: "der", type: "spki" }).subarray(12);
  const both = Buffer.concat([seed, raw]);
  for (const [signing, verifying] of [
    [`whsk_${seed.toString("base64")}`, `whpk_${raw.toString("base64")}`],
    [`whsk_${both.toString("base64")}`, `whpk_${raw.toString("base64")}`],
    [both.toString("hex"), raw.toString("hex")],
    [seed.toString("hex"), raw.toString("hex")],
    [both.toString("base64"), raw.toString("base64")],
    [seed.toString("base64"), raw.toString("base64")],
  ] as const) {
    pairs.push({ signing, verifying, publicKey: ed.publicKey });
  }
  for (const { privateKey, publicKey } of [ed, generateKeyPairSync("ec", { namedCurve: "P-256" })]) {
    pairs.push(
      {
        signing: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
        verifying: publicKey.export({ format: "pem", type: "spki" }).toString(),
        publicKey,
      },
      {
        signing: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
        verifying: publicKey.export({ format: "der", type: "spki" }).toString("base64"),
        publicKey,
      },
    );
  }
  return pairs;
}

let pairs: KeyPair[] | undefined;

function verifies(delivery: SchemeDelivery): boolean {
  try {
    delivery.scheme.verify(delivery.payload, delivery.headers, delivery.secret, { request: delivery.request });
    return true;
  } catch {
    return false;
  }
}

/** The delivery `sign` makes with this secret and shape, if the scheme takes the secret and verifies what it signed. */
function attempt(
  scheme: Scheme,
  shape: BodyShape,
  size: number,
  now: number,
  secrets: { signing: string; verifying: string; publicKey?: KeyObject },
): SchemeDelivery | undefined {
  let kind: SecretKind;
  try {
    kind = scheme.secretKind(secrets.verifying);
  } catch {
    return undefined;
  }
  const request = scheme.readsRequest
    ? { method: "POST", url: `https://hooks.example.com/webhooks/${scheme.name}?tenant=bench` }
    : undefined;
  const signedBody = SIGNED_BODIES[scheme.name];
  let payload: Buffer;
  let headers: Record<string, string>;
  try {
    if (signedBody) {
      ({ payload, headers } = signedBody(size, secrets.signing, now));
    } else {
      payload = bodyOf(shape, size, now, PEER_EVENT_TYPES[scheme.name] ?? "invoice.paid");
      const signed = scheme.sign(payload, secrets.signing, { timestamp: now, id: "msg_bench", ...request });
      headers = { "content-type": CONTENT_TYPES[shape], ...signed };
    }
  } catch {
    return undefined;
  }
  const delivery: SchemeDelivery = {
    label: scheme.name,
    scheme,
    kind,
    payload,
    headers,
    secret: secrets.verifying,
    signingSecret: secrets.signing,
    publicKey: secrets.publicKey,
    request,
    shape: signedBody ? "signed body" : shape,
    now,
  };
  return verifies(delivery) ? delivery : undefined;
}

/**
 * Each kind of secret the scheme verifies, with the first secret and body shape that work: the symmetric secrets
 * first, then the key pairs. A scheme nothing works for has no delivery (the suite says so).
 */
export function deliveriesOf(scheme: Scheme, size: number, now: number): SchemeDelivery[] {
  pairs ??= keyPairs();
  const shapes: readonly BodyShape[] = SIGNED_BODIES[scheme.name]
    ? ["signed body"]
    : FORM_SENDERS.has(scheme.name)
      ? ["form"]
      : SHAPES;
  const named = [...(scheme.about?.secret ?? "").matchAll(/`([A-Za-z0-9_-]+_)…`/g)].map(
    ([, prefix]) => `${prefix}5f0c1e9a7b3d4c2e8f6a1b0c9d8e7f6a`,
  );
  const symmetric = [...SECRETS, ...named].map((secret) => ({ signing: secret, verifying: secret }));
  const candidates = [...symmetric, ...pairs];
  const found = new Map<SecretKind, SchemeDelivery>();
  for (const secrets of candidates) {
    for (const shape of shapes) {
      const delivery = attempt(scheme, shape, size, now, secrets);
      if (delivery && !found.has(delivery.kind)) found.set(delivery.kind, delivery);
      if (delivery) break;
    }
  }
  return [...found.values()].map((delivery, index) =>
    index === 0 ? delivery : { ...delivery, label: `${scheme.name} (${delivery.kind})` },
  );
}
