import { requireNodeCrypto } from "../crypto/node-crypto";

// The namespace of Tidings' idempotency keys (a random UUID, fixed forever: changing it would change every key).
const NAMESPACE = "8f4c2a71-d95e-4b36-a0c8-5e17f3b92d64";

/**
 * The idempotency key of a delivery's effect: a name-based (version 5) UUID of the delivery key and the label, so the
 * same on every run of that delivery (a retry, a rerun after a kill, another instance), and different for another
 * event or another label. 36 characters of `0-9a-f-`: what every API that takes an idempotency key accepts.
 * The name is injective: the key's length, then its UTF-16 code units, then (with a label) a separator and the
 * label's, so no two (key, label) pairs share a name, lone surrogates included.
 */
export function idempotencyKeyOf(deliveryKey: string, label?: string): string {
  if (label !== undefined && typeof label !== "string") {
    throw new TypeError("idempotencyKey(label): the label must be a string");
  }
  const crypto = requireNodeCrypto("idempotencyKey");
  const hash = crypto.createHash("sha1").update(NAMESPACE).update(`${deliveryKey.length}:`);
  hash.update(deliveryKey, "utf16le");
  if (label !== undefined) hash.update("/").update(label, "utf16le");
  const hex = hash.digest("hex");
  // The version (5) and variant (10xx) bits of RFC 9562.
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The `idempotencyKey` every handler context carries: one shared function reading the context it is called on, so a
 * delivery costs no closure. Called detached (`const { idempotencyKey } = ctx`), it says how to call it.
 */
export function idempotencyKey(this: { deliveryKey: string } | undefined, label?: string): string {
  if (typeof this?.deliveryKey !== "string") {
    throw new TypeError("idempotencyKey: call it on the handler's context, as ctx.idempotencyKey(label)");
  }
  return idempotencyKeyOf(this.deliveryKey, label);
}
