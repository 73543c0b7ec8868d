// Telnyx signs with ed25519; the `telnyx` SDK verifies (`webhooks.unwrap`). The test makes a key pair and signs as
// Telnyx documents (`<timestamp>|<body>`, base64).
import { sign as edSign, generateKeyPairSync } from "node:crypto";
import { telnyx } from "@tidings/core/schemes";
import Telnyx from "telnyx";
import { describeSender } from "./harness";

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const seed = privateKey.export({ format: "der", type: "pkcs8" }).subarray(16);
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(12);
  return { privateKey, secretKey: Buffer.concat([seed, raw]).toString("base64"), publicKey: raw.toString("base64") };
}

const key = keyPair();
const other = keyPair();
const body = JSON.stringify({
  data: { event_type: "message.received", id: "b301ed3f-1490-491f-995f-6e64e69674d4", payload: { text: "hi" } },
  meta: { attempt: 1 },
});

describeSender("Telnyx", {
  scheme: telnyx(),
  secret: key.publicKey,
  otherSecret: other.publicKey,
  signingSecret: key.secretKey,
  body,
  type: "message.received",
  timed: true,
  sign(payload, secret, timestamp) {
    const privateKey = secret === other.publicKey ? other.privateKey : key.privateKey;
    const signature = edSign(null, Buffer.from(`${timestamp}|${payload}`), privateKey).toString("base64");
    return { "telnyx-signature-ed25519": signature, "telnyx-timestamp": String(timestamp) };
  },
  async accepts(payload, headers, secret) {
    const client = new Telnyx({ apiKey: "KEY_test", publicKey: secret });
    try {
      await client.webhooks.unwrap(payload, { headers });
      return true;
    } catch {
      return false;
    }
  },
});
