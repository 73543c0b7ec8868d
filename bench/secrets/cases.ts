import { generateKeyPairSync, randomBytes } from "node:crypto";
import { type Scheme, serviceSignature, standardWebhooks } from "@tidings/core/schemes";

/** One verification the suite counts: a delivery's body, its headers, and the secret its endpoint holds. */
interface Delivery {
  payload: Buffer;
  headers: Record<string, string>;
  secret: string | string[];
}

/** What a side runs: `amount` verifications, each of the next delivery in its list. */
export interface SecretSide {
  name: string;
  run(amount: number): void;
}

/** How many endpoints a multi-tenant resolver hands out secrets for: each delivery verifies under the next one. */
export const ENDPOINTS = 1000;
/** The most `v1a` entries a `webhook-signature` header may carry. */
export const FORGED_ENTRIES = 32;
/** The `whpk_` keys of the endpoint a forged delivery is sent to: a rotation. */
export const FORGED_KEYS = 2;

function body(size: number): Buffer {
  const head = JSON.stringify({ id: "evt_bench", type: "user.created", data: { pad: "" } });
  return Buffer.from(head.replace('"pad":""', `"pad":"${"x".repeat(Math.max(0, size - head.length))}"`));
}

function edKeys(): { whsk: string; whpk: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const seed = privateKey.export({ format: "der", type: "pkcs8" }).subarray(16);
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(12);
  return { whsk: `whsk_${seed.toString("base64")}`, whpk: `whpk_${raw.toString("base64")}` };
}

function side(name: string, scheme: Scheme, deliveries: readonly Delivery[], forged = false): SecretSide {
  let next = 0;
  return {
    name,
    run(amount) {
      for (let index = 0; index < amount; index++) {
        const delivery = deliveries[next++ % deliveries.length] as Delivery;
        try {
          scheme.verify(delivery.payload, delivery.headers, delivery.secret);
          if (forged) throw new Error(`${name}: a forged delivery verified`);
        } catch (error) {
          if (!forged || (error as { code?: string }).code !== "signature_mismatch") throw error;
        }
      }
    },
  };
}

/**
 * Per-request work as the endpoints grow, and what a forged ed25519 delivery costs. Each pair is counted in one
 * process, taking turns: `1 endpoint` verifies `ENDPOINTS` deliveries signed with one secret, `1,000 endpoints` as many
 * signed each with its endpoint's own (a multi-tenant resolver's secrets in rotation); `forged` sends 32 random `v1a`
 * entries to an endpoint holding two `whpk_` keys, `one verification` a genuine delivery of the same size to one key.
 */
export function buildSecretSides(size: number, forgedSize: number, endpoints = ENDPOINTS): SecretSide[] {
  const payload = body(size);
  const now = Math.floor(Date.now() / 1000);
  const sides: SecretSide[] = [];

  const service = serviceSignature();
  const hmacSecrets = Array.from({ length: endpoints }, (_, index) => `whsec_endpoint_${index}_${"k".repeat(24)}`);
  const hmacOf = (secret: string): Delivery => ({
    payload,
    headers: service.sign(payload, secret, { timestamp: now }),
    secret,
  });
  const oneHmac = hmacOf(hmacSecrets[0] as string);
  sides.push(
    side(
      "hmac|one",
      service,
      Array.from({ length: endpoints }, () => oneHmac),
    ),
  );
  sides.push(side("hmac|many", service, hmacSecrets.map(hmacOf)));

  const standard = standardWebhooks();
  const keys = Array.from({ length: endpoints }, edKeys);
  const edOf = ({ whsk, whpk }: { whsk: string; whpk: string }): Delivery => ({
    payload,
    headers: standard.sign(payload, whsk, { timestamp: now, id: "msg_bench" }),
    secret: whpk,
  });
  const oneEd = edOf(keys[0] as { whsk: string; whpk: string });
  sides.push(
    side(
      "ed25519|one",
      standard,
      Array.from({ length: endpoints }, () => oneEd),
    ),
  );
  sides.push(side("ed25519|many", standard, keys.map(edOf)));

  const big = body(forgedSize);
  const [first, second] = [edKeys(), edKeys()];
  const genuine: Delivery = {
    payload: big,
    headers: standard.sign(big, first.whsk, { timestamp: now, id: "msg_genuine" }),
    secret: first.whpk,
  };
  // Random signatures with S below the group order, so each one costs a full check (hashing the body) to refuse.
  const entries = Array.from({ length: FORGED_ENTRIES }, () => {
    const signature = randomBytes(64);
    signature[63] = 0;
    return `v1a,${signature.toString("base64")}`;
  });
  const forged: Delivery = {
    payload: big,
    headers: { "webhook-id": "msg_forged", "webhook-timestamp": String(now), "webhook-signature": entries.join(" ") },
    secret: [first.whpk, second.whpk].slice(0, FORGED_KEYS),
  };
  sides.push(side("forged|one", standard, [genuine]));
  sides.push(side("forged|forged", standard, [forged], true));
  return sides;
}
