import { createHmac } from "node:crypto";
import { square } from "@tidings/core/schemes";
import { WebhooksHelper } from "square";
import { describe, expect, it } from "vitest";
import { codeOf, describeSender } from "./harness";

const KEY = "asdf1234-signature-key_Zx9";
const URL = "https://hooks.example.com/square/webhooks?shop=1";

// A payment.updated notification as Square sends it.
const body = JSON.stringify({
  merchant_id: "6SSW7HV8K2ST5",
  type: "payment.updated",
  event_id: "9b0d7f6c-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
  created_at: "2026-01-01T00:00:00.000Z",
  data: {
    type: "payment",
    id: "KkAkhdMsgzn59SM8A89WgKwekxLZY",
    object: { payment: { id: "KkAk", status: "COMPLETED" } },
  },
});

// The SDK only verifies: the test signs with Square's documented algorithm.
const squareSign = (text: string, key: string, url = URL) =>
  createHmac("sha256", key)
    .update(url + text)
    .digest("base64");

describeSender("Square", {
  scheme: square(),
  secret: KEY,
  otherSecret: "another-signature-key",
  body,
  type: "payment.updated",
  timed: false,
  request: { method: "POST", url: URL },
  sign: (text, secret) => ({ "x-square-hmacsha256-signature": squareSign(text, secret) }),
  accepts: (text, headers, secret) =>
    WebhooksHelper.verifySignature({
      requestBody: text,
      signatureHeader: headers["x-square-hmacsha256-signature"] ?? "",
      signatureKey: secret,
      notificationUrl: URL,
    }),
});

describe("Square, beyond the shared checks", () => {
  it("deduplicates by event_id and refuses a signature made for another notification URL", async () => {
    const scheme = square();
    const headers = { "x-square-hmacsha256-signature": squareSign(body, KEY, "https://hooks.example.com/other") };
    expect(await codeOf(() => scheme.verify(body, headers, KEY, { request: { method: "POST", url: URL } }))).toBe(
      "signature_mismatch",
    );
    expect(scheme.idOf(JSON.parse(body), Buffer.from(body), {})).toBe("9b0d7f6c-1a2b-4c3d-8e9f-0a1b2c3d4e5f");
    expect(() => scheme.verify(body, headers, KEY)).toThrow(/options\.request/);
  });
});
