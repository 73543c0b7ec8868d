import type { HeaderSource } from "../http/headers";
import { isHexSha256 } from "../verification/formats";
import type { RawPayload } from "../verification/payload";
import type { SignedDelivery } from "../verification/signed-delivery";
import { noSignature, requiredHeader } from "./headers";
import { hmac, signingBytes } from "./sign-helpers";

/** The header GitHub and Meta both sign with: `sha256=<hex HMAC-SHA256 of the body>`, keyed by the secret's UTF-8 bytes. */
export const HUB_HEADER = "x-hub-signature-256";
const DISPLAY = "X-Hub-Signature-256";

/** The body and the one signature an `X-Hub-Signature-256` header claims; no time is signed. */
export function readHubSignature(
  payload: Uint8Array,
  headers: HeaderSource,
  secrets: readonly string[],
  toleranceSeconds: number,
): SignedDelivery {
  const value = requiredHeader(headers, HUB_HEADER, DISPLAY);
  const hex = value.startsWith("sha256=") ? value.slice(7) : "";
  if (!isHexSha256(hex)) throw noSignature(DISPLAY, "sha256=<64 lowercase hex>");
  const content = { prefix: "", payload, signatures: [hex], label: "sha256" };
  return { content, secrets, timestamp: undefined, toleranceSeconds };
}

/** The signature `readHubSignature` accepted: 64 lower-case hex digits, one spelling per body and secret. */
export const hubSignatureOf = (headers: HeaderSource): string => requiredHeader(headers, HUB_HEADER, DISPLAY).slice(7);

/** The `X-Hub-Signature-256` header the sender would send with `payload`. */
export function signHub(payload: RawPayload, secret: string): Record<string, string> {
  return { [HUB_HEADER]: `sha256=${hmac(secret, "", signingBytes(payload, secret)).toString("hex")}` };
}
