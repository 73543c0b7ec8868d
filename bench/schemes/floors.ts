/**
 * A scheme's floor, derived from what its `read` returns for the delivery: the least any verifier must do once the
 * header's (or body's) parts are handed over ready-made. The signed bytes are `content.prefix` + `content.payload` (+
 * `content.suffix`, where the sender signs something after the body);
 * the key is made once, before counting (as Tidings caches its keys); the signature is decoded from its text
 * (`content.encoding`) on every verification, then compared. Content with matchers of its own is probed once, here,
 * for what its signatures are, and the floor is that primitive; only where no probe finds it is the floor the
 * scheme's own matcher, and the row says so. Where the sender's format forces work on any verifier before the
 * primitive (forced.ts: a JSON body holding the signature or the time, a signed form, a JWT), the floor does that work
 * too, the cheapest correct way with Node's own APIs, and `bare` is the primitive alone.
 */
import * as crypto from "node:crypto";
import type { SignedContent } from "@tidings/core/schemes";
import type { SchemeDelivery } from "./deliveries";
import { forcedWork } from "./forced";

export interface Floor {
  /** What the floor computes: `HMAC-SHA1, base64`, `ed25519`, `token compare`, `the scheme's matcher`. */
  kind: string;
  run: () => boolean;
  /** Where the format forces work before the primitive: the primitive alone, as the floor was before that work. */
  bare?: (() => boolean) | undefined;
}

const ALGORITHMS = ["sha256", "sha1", "sha512"] as const;

type Extra = { body?: unknown; bodyHash?: unknown; bodySha256?: unknown };

/** The SHA-256 of a body a content carries beside its signed bytes (a JWT's claim, a URL's `bodySHA256`), if any. */
function bodyDigestOf(content: SignedContent & Extra): { body: Uint8Array; expected: Buffer } | undefined {
  if (!(content.body instanceof Uint8Array)) return undefined;
  if (content.bodyHash instanceof Uint8Array) return { body: content.body, expected: Buffer.from(content.bodyHash) };
  if (typeof content.bodySha256 === "string")
    return { body: content.body, expected: Buffer.from(content.bodySha256, "hex") };
  return undefined;
}

/** The HMAC floor, with the hash whose MAC of the signed bytes is one of the signatures. */
function hmacFloor(content: SignedContent & Extra, keyBytes: Uint8Array): Floor | undefined {
  const encoding = content.encoding ?? "hex";
  const key = crypto.createSecretKey(keyBytes);
  // The signed bytes read at each run, as forced work (a signed form) rebuilds them; a suffix where the sender signs one.
  const macOf = (algorithm: string) => {
    const mac = crypto.createHmac(algorithm, key).update(content.prefix).update(content.payload);
    return (content.suffix ? mac.update(content.suffix) : mac).digest();
  };
  for (const algorithm of ALGORITHMS) {
    const mac = macOf(algorithm);
    const signature = content.signatures.find((text) => Buffer.from(text, encoding).equals(mac));
    if (signature === undefined) continue;
    const kind = `HMAC-${algorithm.toUpperCase()}, ${encoding}`;
    const mac1 = () => crypto.timingSafeEqual(macOf(algorithm), Buffer.from(signature, encoding));
    const digest = bodyDigestOf(content);
    if (!digest) return { kind, run: mac1 };
    const { body, expected } = digest;
    return {
      kind: `${kind} + the body's SHA-256`,
      run: () => mac1() && crypto.timingSafeEqual(crypto.createHash("sha256").update(body).digest(), expected),
    };
  }
  return undefined;
}

/** The signatures, and those a content keeps apart for its own matchers (Standard Webhooks' `ed25519`: its `v1a`). */
const signaturesOf = (content: SignedContent): string[] =>
  Object.values(content).flatMap((value) =>
    Array.isArray(value) && value.every((item) => typeof item === "string") ? (value as string[]) : [],
  );

/** ed25519, or ECDSA P-256 (its signature DER or r ‖ s), over the signed bytes with the delivery's public key. */
function publicKeyFloor(content: SignedContent, key: crypto.KeyObject): Floor | undefined {
  const encoding = content.encoding ?? "hex";
  const { suffix } = content;
  const data = suffix
    ? () => Buffer.concat([Buffer.from(content.prefix), content.payload, Buffer.from(suffix)])
    : () => Buffer.concat([Buffer.from(content.prefix), content.payload]);
  const ed = key.asymmetricKeyType === "ed25519";
  const hash = ed ? null : "sha256";
  for (const dsaEncoding of ed ? (["der"] as const) : (["der", "ieee-p1363"] as const)) {
    const signature = signaturesOf(content).find((text) => {
      try {
        return crypto.verify(hash, data(), { key, dsaEncoding }, Buffer.from(text, encoding));
      } catch {
        return false;
      }
    });
    if (signature === undefined) continue;
    return {
      kind: ed ? "ed25519" : `ECDSA P-256 (${dsaEncoding === "der" ? "DER" : "r ‖ s"})`,
      run: () => crypto.verify(hash, data(), { key, dsaEncoding }, Buffer.from(signature, encoding)),
    };
  }
  return undefined;
}

/** A token sent as it is (no signature): the constant-time compare with the secret's bytes. */
function tokenFloor(content: SignedContent, keyBytes: Uint8Array): Floor | undefined {
  const token = content.signatures[0];
  const expected = Buffer.from(keyBytes);
  if (token === undefined || !Buffer.from(token).equals(expected)) return undefined;
  return {
    kind: "token compare",
    run: () => {
      const received = Buffer.from(token);
      return received.length === expected.length && crypto.timingSafeEqual(received, expected);
    },
  };
}

/** The primitive's floor, as `read` hands over its parts. */
function primitiveFloor(delivery: SchemeDelivery, content: SignedContent): Floor {
  const { secret, publicKey } = delivery;
  const keyBytes = content.format?.keyBytes(secret);
  const floor =
    (publicKey && publicKeyFloor(content, publicKey)) ??
    (keyBytes && (hmacFloor(content, keyBytes) ?? tokenFloor(content, keyBytes)));
  if (floor) return floor;
  const { matchers } = content;
  if (!matchers) throw new Error(`${delivery.label}: no HMAC of the signed bytes is its signature`);
  return {
    kind: "the scheme's matcher",
    run: () => matchers.node(crypto, content, [secret]) !== undefined,
  };
}

export function floorOf(delivery: SchemeDelivery): Floor {
  const { scheme, payload, headers, secret, request } = delivery;
  const { content } = scheme.read(payload, headers, [secret], 300, request);
  const forced = forcedWork(delivery, content);
  if (!forced) return primitiveFloor(delivery, content);
  const floor = primitiveFloor(delivery, forced.content);
  const bare = primitiveFloor(delivery, content);
  const { work } = forced;
  const run = () => {
    work();
    return floor.run();
  };
  if (!run()) throw new Error(`${delivery.label}: the floor's ${forced.kind} built other signed bytes than read's`);
  return { kind: `${forced.kind} + ${floor.kind}`, run, bare: bare.run };
}
