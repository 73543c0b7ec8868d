import { generateKeyPairSync } from "node:crypto";

/** What the CLI signs with (`--secret`) and what the receiver verifies with: one secret, or a key pair's halves. */
export interface SenderKeys {
  sender: string;
  receiver: string;
}

const same = (secret: string): SenderKeys => ({ sender: secret, receiver: secret });

/** A fresh ed25519 pair as raw bytes: the 32-byte seed and the 32-byte public key. */
function ed25519Pair() {
  const { privateKey } = generateKeyPairSync("ed25519");
  const { d, x } = privateKey.export({ format: "jwk" }) as { d: string; x: string };
  return { seed: Buffer.from(d, "base64url"), publicKey: Buffer.from(x, "base64url") };
}

/** Each asymmetric sender's key pair, written as the sender writes it: its private key, and the public key it shows. */
const KEY_PAIRS: Readonly<Record<string, () => SenderKeys>> = {
  discord: () => {
    const { seed, publicKey } = ed25519Pair();
    return { sender: Buffer.concat([seed, publicKey]).toString("hex"), receiver: publicKey.toString("hex") };
  },
  telnyx: () => {
    const { seed, publicKey } = ed25519Pair();
    return { sender: Buffer.concat([seed, publicKey]).toString("base64"), receiver: publicKey.toString("base64") };
  },
  sendgrid: () => {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    return {
      sender: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
      receiver: publicKey.export({ format: "der", type: "spki" }).toString("base64"),
    };
  },
};

/** A Standard Webhooks ed25519 pair: `whsk_` signs, `whpk_` verifies. */
export function standardKeyPair(): SenderKeys {
  const { seed, publicKey } = ed25519Pair();
  return { sender: `whsk_${seed.toString("base64")}`, receiver: `whpk_${publicKey.toString("base64")}` };
}

const WHSEC = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/** Secrets written as each sender writes them; a sender not named here takes a plain UTF-8 secret. */
const SECRETS: Readonly<Record<string, string>> = {
  "standard-webhooks": WHSEC,
  svix: WHSEC,
  clerk: WHSEC,
  resend: WHSEC,
  liveblocks: WHSEC,
  stripe: "whsec_stripe_cli",
  shopify: "shpss_cli_secret",
  hubspot: "7f0a3b62-3c3e-4b2a-9f4d-8d8f2d3c1a5e",
  line: "8c570fa6dd201bb328f1c1eac23a96d8",
  linear: "lin_wh_cli_secret",
  meta: "4f8e5b8a2c6d4e1f9a7b3c5d2e8f1a6b",
  paddle: "pdl_ntfset_01hv8x29kz0t586xy6zn1a62ky_cli",
  plivo: "MDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAw",
  polar: "polar_whs_cli0endpoint0secret000000000000000000000",
  postmark: "hooks:cli-password",
  sentry: "a".repeat(64),
  twilio: "9f3c1d2e4b5a69788796a5b4c3d2e1f0",
  workos: "wos_webhook_cli_secret",
  adyen: "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056",
  qstash: "sig_7kYjw48mhY7kAjqNGcy6cr29RJ6r",
};

/** The keys `--scheme <name>` is checked with. */
export function keysFor(name: string): SenderKeys {
  const pair = KEY_PAIRS[name];
  return pair ? pair() : same(SECRETS[name] ?? `${name} cli secret`);
}
