import { createHmac, timingSafeEqual } from "node:crypto";
import { intercom } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { codeOf, describeSender } from "./harness";

// No Intercom SDK here verifies webhooks: its documented algorithm, both ways. HMAC-SHA1 of the body
// under the app's client secret, hex, in `X-Hub-Signature: sha1=<hex>`.
const hex = (value: string, key: string) => createHmac("sha1", key).update(value).digest("hex");

function accepts(payload: string, headers: Record<string, string>, key: string): boolean {
  const expected = Buffer.from(`sha1=${hex(payload, key)}`);
  const given = Buffer.from(headers["x-hub-signature"] ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const secret = "4f1b2c3d-intercom-client-secret";
const body = JSON.stringify({
  type: "notification_event",
  app_id: "ab12cd34",
  id: "notif_4e3504a3-ba3f-46dc-ab48-8e4d5bdfdf4e",
  topic: "conversation.user.created",
  delivery_attempts: 1,
  first_sent_at: 1767225600,
  created_at: 1767225600,
  data: { type: "notification_event_data", item: { type: "conversation", id: "147" } },
});

describeSender("Intercom", {
  scheme: intercom(),
  secret,
  otherSecret: "intercom-other-secret",
  body,
  type: "conversation.user.created",
  timed: false,
  sign: (payload, key) => ({ "x-hub-signature": `sha1=${hex(payload, key)}` }),
  accepts,
});

describe("Intercom, beyond the harness", () => {
  it("refuses GitHub's SHA-256 spelling of the header", async () => {
    const sha256 = createHmac("sha256", secret).update(body).digest("hex");
    const code = await codeOf(() => intercom().verify(body, { "x-hub-signature": `sha256=${sha256}` }, secret));
    expect(code).toBe("no_supported_signature");
  });

  it("dedups a retry, signed anew with its next delivery_attempts, by the notification's id", () => {
    const retry = JSON.parse(body.replace('"delivery_attempts":1', '"delivery_attempts":2'));
    expect(intercom().idOf(retry, new Uint8Array(), {})).toBe(intercom().idOf(JSON.parse(body), new Uint8Array(), {}));
  });
});
