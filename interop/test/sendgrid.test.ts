// SendGrid signs with ECDSA P-256; @sendgrid/eventwebhook only verifies. The test makes a key pair and signs as SendGrid
// documents (timestamp + body, SHA-256, base64 DER).
import { sign as ecSign, generateKeyPairSync } from "node:crypto";
import { EventWebhook } from "@sendgrid/eventwebhook";
import { createReceiver } from "@tidings/core";
import { github, sendgrid } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { describeSender } from "./harness";

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    privateKey,
    secretKey: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
    publicKey: publicKey.export({ format: "der", type: "spki" }).toString("base64"),
  };
}

const key = keyPair();
const other = keyPair();
const body = JSON.stringify([
  { email: "a@example.com", event: "delivered", sg_event_id: "ZGVsaXZlcmVkLTAtMQ", timestamp: 1700000000 },
  { email: "b@example.com", event: "open", sg_event_id: "b3Blbi0xLTI", timestamp: 1700000001 },
]);

describeSender("SendGrid", {
  scheme: sendgrid(),
  secret: key.publicKey,
  otherSecret: other.publicKey,
  signingSecret: key.secretKey,
  body,
  type: "batch",
  timed: true,
  sign(payload, secret, timestamp) {
    const privateKey = secret === other.publicKey ? other.privateKey : key.privateKey;
    const signature = ecSign("sha256", Buffer.from(`${timestamp}${payload}`), privateKey).toString("base64");
    return {
      "x-twilio-email-event-webhook-signature": signature,
      "x-twilio-email-event-webhook-timestamp": String(timestamp),
    };
  },
  accepts(payload, headers, secret) {
    const webhook = new EventWebhook();
    const publicKey = webhook.convertPublicKeyToECDSA(secret);
    return webhook.verifySignature(
      publicKey,
      payload,
      headers["x-twilio-email-event-webhook-signature"] ?? "",
      headers["x-twilio-email-event-webhook-timestamp"] ?? "",
    );
  },
});

describe("SendGrid's batches and keys", () => {
  it("hands the batch to a `batch` handler, its events in order", async () => {
    const seen: unknown[] = [];
    const receiver = createReceiver({ scheme: sendgrid(), secret: key.publicKey }).on("batch", (batch) => {
      seen.push(...(batch as { events: { event: string }[] }).events.map((one) => one.event));
    });
    const headers = sendgrid().sign(body, key.secretKey);
    expect((await receiver.receive({ rawBody: Buffer.from(body), headers })).code).toBe("accepted");
    expect(seen).toEqual(["delivered", "open"]);
  });

  it("refuses its verification key on an HMAC scheme, and an HMAC secret on SendGrid's", () => {
    expect(() => createReceiver({ scheme: github(), secret: key.publicKey })).toThrow(TypeError);
    expect(() => createReceiver({ scheme: sendgrid(), secret: "an hmac secret" })).toThrow(TypeError);
    expect(() => createReceiver({ scheme: sendgrid(), secret: key.secretKey })).toThrow(TypeError);
  });
});
