import * as nodeCrypto from "node:crypto";
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { matchWithNodeCrypto } from "../src/crypto/node-crypto";
import { ed25519PublicKey, serviceSignature, standardWebhooks } from "../src/entries/schemes";

/** node:crypto as it is, counting the keys made through it. */
function countingCrypto() {
  const made = { secret: 0, public: 0 };
  const crypto = new Proxy(nodeCrypto, {
    get(target, name) {
      if (name === "createSecretKey") {
        return (...args: Parameters<typeof nodeCrypto.createSecretKey>) => {
          made.secret++;
          return nodeCrypto.createSecretKey(...args);
        };
      }
      if (name === "createPublicKey") {
        return (...args: Parameters<typeof nodeCrypto.createPublicKey>) => {
          made.public++;
          return nodeCrypto.createPublicKey(...args);
        };
      }
      return Reflect.get(target, name);
    },
  }) as typeof nodeCrypto;
  return { crypto, made };
}

const body = Buffer.from(JSON.stringify({ id: "evt_1", type: "message.sent" }));

describe("the key caches with many endpoints in rotation", () => {
  it("make each HMAC key once for 1,000 endpoints' secrets", () => {
    const { crypto, made } = countingCrypto();
    const secrets = Array.from({ length: 1000 }, (_, index) => `whsec_endpoint_${index}_${Math.random()}`);
    const deliveries = secrets.map((secret) => {
      const headers = serviceSignature().sign(body, secret);
      return { secret, delivery: serviceSignature().read(body, headers, [secret], 300) };
    });
    for (const pass of [1, 2]) {
      for (const { secret, delivery } of deliveries) {
        expect(matchWithNodeCrypto(crypto, delivery.content, [secret])?.secretIndex).toBe(0);
      }
      expect([pass, made.secret]).toEqual([pass, 1000]);
    }
  });

  it("make each ed25519 key once for 100 endpoints' keys", () => {
    const { crypto, made } = countingCrypto();
    const deliveries = Array.from({ length: 100 }, () => {
      const { privateKey } = generateKeyPairSync("ed25519");
      const whsk = `whsk_${privateKey.export({ format: "der", type: "pkcs8" }).subarray(16).toString("base64")}`;
      const whpk = ed25519PublicKey(whsk);
      return { whpk, delivery: standardWebhooks().read(body, standardWebhooks().sign(body, whsk), [whpk], 300) };
    });
    for (const pass of [1, 2]) {
      for (const { whpk, delivery } of deliveries) {
        expect(matchWithNodeCrypto(crypto, delivery.content, [whpk])?.secretIndex).toBe(0);
      }
      expect([pass, made.public]).toEqual([pass, 100]);
    }
  });
});
