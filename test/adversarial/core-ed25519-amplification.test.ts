import * as nodeCrypto from "node:crypto";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createReceiver } from "@tidings/core";
import { ed25519PublicKey, standardWebhooks } from "@tidings/core/schemes";
import { afterEach, describe, expect, it, vi } from "vitest";

// A sender's or an endpoint's ed25519 key pair, as Standard Webhooks writes them.
function keyPair() {
  const { privateKey } = generateKeyPairSync("ed25519");
  const whsk = `whsk_${privateKey.export({ format: "der", type: "pkcs8" }).subarray(16).toString("base64")}`;
  return { whsk, whpk: ed25519PublicKey(whsk) };
}

/** node:crypto as it is, counting the ed25519 checks (`verify`) made through it. */
function countingCrypto() {
  const counted = { verifications: 0 };
  const crypto = new Proxy(nodeCrypto, {
    get(target, name) {
      if (name !== "verify") return Reflect.get(target, name);
      return (...args: Parameters<typeof nodeCrypto.verify>) => {
        counted.verifications++;
        return nodeCrypto.verify(...args);
      };
    },
  }) as typeof nodeCrypto;
  return { crypto, counted };
}

const scheme = standardWebhooks();
const body = Buffer.from(JSON.stringify({ type: "user.created", data: { pad: "x".repeat(64 * 1024) } }));
const now = () => String(Math.floor(Date.now() / 1000));

/** The most `v1a` entries a header may carry, each with S below the group order: each costs a whole check to refuse. */
function forgedHeaders() {
  const entries = Array.from({ length: 32 }, () => {
    const signature = randomBytes(64);
    signature[63] = 0;
    return `v1a,${signature.toString("base64")}`;
  });
  return { "webhook-id": "msg_forged", "webhook-timestamp": now(), "webhook-signature": entries.join(" ") };
}

/** The delivery as Standard Webhooks reads it, and its matchers: what the Receiver and `verify` run. */
function read(headers: Record<string, string>, secrets: string[]) {
  const delivery = scheme.read(body, headers, secrets, 300);
  const matchers = delivery.content.matchers;
  if (!matchers) throw new Error("Standard Webhooks reads its v1a signatures with matchers of its own");
  return { delivery, matchers };
}

afterEach(() => vi.restoreAllMocks());

describe("a forged Standard Webhooks delivery with 32 v1a entries", () => {
  const keys = [keyPair(), keyPair(), keyPair()];

  it("costs at most 4 ed25519 checks with node:crypto, however many keys the endpoint holds", () => {
    for (const held of [1, 2, 3]) {
      const { crypto, counted } = countingCrypto();
      const secrets = keys.slice(0, held).map((key) => key.whpk);
      const { delivery, matchers } = read(forgedHeaders(), secrets);
      expect(matchers.node(crypto, delivery.content, secrets)).toBeUndefined();
      expect([held, counted.verifications]).toEqual([held, Math.min(4, 32 * held)]);
    }
  });

  it("costs at most 4 ed25519 checks with Web Crypto", async () => {
    const verify = vi.spyOn(globalThis.crypto.subtle, "verify");
    const secrets = keys.map((key) => key.whpk);
    const { delivery, matchers } = read(forgedHeaders(), secrets);
    expect(await matchers.web(delivery.content, secrets)).toBeUndefined();
    expect(verify).toHaveBeenCalledTimes(4);
  });

  it("is refused by the Receiver as any forgery is", async () => {
    const receiver = createReceiver({ scheme, secret: keys.map((key) => key.whpk), logger: { error() {}, warn() {} } });
    expect((await receiver.receive({ rawBody: body, headers: forgedHeaders() })).code).toBe("signature_mismatch");
  });
});

describe("a genuine delivery while both sides rotate", () => {
  const [older, newer] = [keyPair(), keyPair()];

  it("verifies with two signatures and two keys in every order", async () => {
    for (const signers of [
      [older, newer],
      [newer, older],
    ]) {
      const headers = { "webhook-id": "msg_1", "webhook-timestamp": now() };
      const signatures = signers.map((signer) =>
        scheme.sign(body, signer.whsk, { id: "msg_1", timestamp: Number(headers["webhook-timestamp"]) }),
      );
      const signed = {
        ...headers,
        "webhook-signature": signatures.map((one) => one["webhook-signature"]).join(" "),
      };
      for (const held of [
        [older.whpk, newer.whpk],
        [newer.whpk, older.whpk],
      ]) {
        expect(scheme.verify(body, signed, held).secretIndex).toBe(0);
        expect((await scheme.verifyAsync(body, signed, held)).secretIndex).toBe(0);
      }
    }
  });

  it("verifies when the sender signs with a key the endpoint does not hold yet and one it does", () => {
    const unknown = keyPair();
    const timestamp = Number(now());
    const signed = [unknown, newer].map(
      (signer) => scheme.sign(body, signer.whsk, { id: "msg_2", timestamp })["webhook-signature"],
    );
    const headers = {
      "webhook-id": "msg_2",
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signed.join(" "),
    };
    expect(scheme.verify(body, headers, [older.whpk, newer.whpk]).secretIndex).toBe(1);
  });
});
