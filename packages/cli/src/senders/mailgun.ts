import { createHmac } from "node:crypto";
import { alphanumeric, JSON_TYPE, type SenderSample } from "./sample";

/**
 * A `delivered` event as Mailgun sends it (trimmed), signed inside the body as Mailgun documents it: `signature` holds
 * `timestamp`, `token` and the hex HMAC-SHA256 of the two, keyed by the webhook signing key. `event-data` is not
 * signed. The token, the scheme's dedup key, is made of `id`.
 */
export const mailgun: SenderSample = (id, now) => {
  const eventData = {
    event: "delivered",
    id: alphanumeric(id),
    timestamp: now + 0.25,
    recipient: "ada@example.com",
    "recipient-domain": "example.com",
    tags: ["welcome"],
    envelope: { transport: "smtp", sender: "bob@mg.example.com", targets: "ada@example.com" },
    "delivery-status": { code: 250, message: "OK", description: "", "attempt-no": 1 },
    message: { headers: { "message-id": `${alphanumeric(id)}@mg.example.com`, subject: "Welcome" }, size: 1024 },
  };
  const token = alphanumeric(id);
  return {
    body: JSON.stringify({ "event-data": eventData }),
    contentType: JSON_TYPE,
    headers: {},
    signBody(secret, timestamp, change = (valid) => valid) {
      const valid = createHmac("sha256", secret).update(`${timestamp}${token}`).digest("hex");
      const signature = change(valid);
      const signed = signature === undefined ? undefined : { timestamp: String(timestamp), token, signature };
      return JSON.stringify({ ...(signed ? { signature: signed } : {}), "event-data": eventData });
    },
  };
};
