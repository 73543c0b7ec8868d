// Discord signs with ed25519 and discord-interactions only verifies: the test makes a key pair, signs as Discord
// documents (timestamp + body, hex), and `verifyKey` checks what Tidings signs.
import { sign as edSign, generateKeyPairSync } from "node:crypto";
import { createReceiver } from "@tidings/core";
import { discord, discordPublicKey } from "@tidings/core/schemes";
import { verifyKey } from "discord-interactions";
import { describe, expect, it } from "vitest";
import { describeSender } from "./harness";

function keyPair() {
  const { privateKey } = generateKeyPairSync("ed25519");
  const seed = privateKey.export({ format: "der", type: "pkcs8" }).subarray(16).toString("hex");
  const publicKey = discordPublicKey(seed);
  return { privateKey, secretKey: seed + publicKey, publicKey };
}

const key = keyPair();
const other = keyPair();
const body = JSON.stringify({ id: "1250000000000000001", type: 2, data: { name: "ping" }, token: "t" });

function discordSigns(payload: string, privateKey = key.privateKey, timestamp = Math.floor(Date.now() / 1000)) {
  const signature = edSign(null, Buffer.from(`${timestamp}${payload}`), privateKey).toString("hex");
  return { "x-signature-ed25519": signature, "x-signature-timestamp": String(timestamp) };
}

describeSender("Discord", {
  scheme: discord(),
  secret: key.publicKey,
  otherSecret: other.publicKey,
  signingSecret: key.secretKey,
  body,
  type: "application_command.ping",
  timed: true,
  sign: (payload, secret, timestamp) =>
    discordSigns(payload, secret === other.publicKey ? other.privateKey : key.privateKey, timestamp),
  accepts: (payload, headers, secret) =>
    verifyKey(payload, headers["x-signature-ed25519"] ?? "", headers["x-signature-timestamp"] ?? "", secret),
});

describe("Discord's PING", () => {
  it("is answered {type: 1} once verified, and refused unsigned", async () => {
    const receiver = createReceiver({ scheme: discord(), secret: key.publicKey }).onAny(() => {
      throw new Error("a PING reaches no handler");
    });
    const ping = JSON.stringify({ id: "1", type: 1, application_id: "2" });
    const answered = await receiver.receive({ rawBody: Buffer.from(ping), headers: discordSigns(ping) });
    expect([answered.status, answered.body]).toEqual([200, '{"type":1}']);
    const forged = { ...discordSigns(ping), "x-signature-ed25519": "0".repeat(128) };
    expect((await receiver.receive({ rawBody: Buffer.from(ping), headers: forged })).code).toBe("signature_mismatch");
  });

  it("refuses a private key or an HMAC secret where the public key goes", () => {
    expect(() => createReceiver({ scheme: discord(), secret: key.secretKey })).toThrow(TypeError);
    expect(() => createReceiver({ scheme: discord(), secret: "whsec_hmac" })).toThrow(TypeError);
  });
});
