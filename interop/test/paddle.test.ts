import { createHmac } from "node:crypto";
import { Paddle } from "@paddle/paddle-node-sdk";
import { paddle } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { codeOf, describeSender } from "./harness";

const secret = "pdl_ntfset_01hv8x29kz0t586xy6zn1a62ky_Xx8N2s0y1nZ6ZvWk5u5e3iZr8y9dJbAQ";
const body = JSON.stringify({
  event_id: "evt_01hv8x2acma2gz3he1xpmbqz0f",
  event_type: "transaction.completed",
  occurred_at: "2026-01-01T00:00:00.000000Z",
  notification_id: "ntf_01hv8x2af4kqcm6tpgk9cgyhm1",
  data: { id: "txn_01hv8wptq8987qeep44cyrewp9", status: "completed", customer_id: "ctm_01hv8wt8nffez4p2t6typn4a5j" },
});
// The SDK picks its crypto when a client is made: `new Paddle(apiKey)` (no request is sent) sets up node:crypto.
const { webhooks } = new Paddle("pdl_sdbx_apikey_01hv8x2acma2gz3he1xpmbqz0f_unused");

// Paddle's SDK verifies only (`isSignatureValid`); deliveries are signed with Paddle's documented algorithm.
const hex = (value: string, key: string) => createHmac("sha256", key).update(value).digest("hex");

describeSender("Paddle", {
  scheme: paddle(),
  secret,
  otherSecret: "pdl_ntfset_01hv8x29kz0t586xy6zn1a62ky_other",
  body,
  type: "transaction.completed",
  timed: true,
  sign: (payload, key, timestamp) => ({
    "paddle-signature": `ts=${timestamp};h1=${hex(`${timestamp}:${payload}`, key)}`,
  }),
  accepts: (payload, headers, key) => webhooks.isSignatureValid(payload, key, headers["paddle-signature"] as string),
});

describe("Paddle, beyond the harness", () => {
  it("unmarshals what Tidings signs (an event type the SDK has no class for stays a generic event)", async () => {
    const generic = JSON.stringify({
      event_id: "evt_01hv8x2acma2gz3he1xpmbqz0g",
      event_type: "tidings.test",
      data: {},
    });
    const headers = paddle().sign(generic, secret);
    const event = await webhooks.unmarshal(generic, secret, headers["paddle-signature"] as string);
    expect(event.eventId).toBe("evt_01hv8x2acma2gz3he1xpmbqz0g");
  });

  it("verifies either h1 while a secret is rotated, in either order", () => {
    const t = Math.floor(Date.now() / 1000);
    const [current, old] = [hex(`${t}:${body}`, secret), hex(`${t}:${body}`, "pdl_ntfset_old")];
    for (const header of [`ts=${t};h1=${old};h1=${current}`, `ts=${t};h1=${current};h1=${old}`]) {
      expect(paddle().verify(body, { "paddle-signature": header }, secret)).toMatchObject({ secretIndex: 0 });
    }
  });

  it("refuses an API key where the notification destination's secret goes", async () => {
    expect(() => paddle().secretKind("pdl_live_apikey_01gtgztp8f_key")).toThrow(TypeError);
    const headers = paddle().sign(body, secret);
    expect(() => paddle().verify(body, headers, "pdl_sdbx_apikey_01gtgztp8f_key")).toThrow(TypeError);
    expect(await codeOf(() => paddle().verify(body, headers, "pdl_ntfset_other"))).toBe("signature_mismatch");
  });
});
