import { createHmac, timingSafeEqual } from "node:crypto";
import { createReceiver } from "@tidings/core";
import { lemonSqueezy } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { describeSender } from "./harness";

// Lemon Squeezy publishes no verifying SDK: its documented algorithm, both ways. HMAC-SHA256 of the body under the
// signing secret, hex, in `X-Signature`.
const hex = (value: string, key: string) => createHmac("sha256", key).update(value).digest("hex");

function accepts(payload: string, headers: Record<string, string>, key: string): boolean {
  const expected = Buffer.from(hex(payload, key));
  const given = Buffer.from(headers["x-signature"] ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const secret = "lsq-signing-secret-31";
const body = JSON.stringify({
  meta: { event_name: "order_created", test_mode: true, custom_data: { user_id: "u_1" } },
  data: { type: "orders", id: "1", attributes: { store_id: 1, user_email: "ada@example.com", total: 1199 } },
});

describeSender("Lemon Squeezy", {
  scheme: lemonSqueezy(),
  secret,
  otherSecret: "lsq-other-secret",
  body,
  type: "order_created",
  timed: false,
  sign: (payload, key) => ({ "x-signature": hex(payload, key), "x-event-name": "order_created" }),
  accepts,
});

describe("Lemon Squeezy, beyond the harness", () => {
  it("routes by the signed meta.event_name, never by the unsigned X-Event-Name header", async () => {
    const seen: string[] = [];
    const receiver = createReceiver({ scheme: lemonSqueezy(), secret }).onAny((_event, ctx) => {
      seen.push(ctx.type);
    });
    const headers = { "x-signature": hex(body, secret), "x-event-name": "subscription_cancelled" };
    expect((await receiver.receive({ rawBody: Buffer.from(body), headers })).code).toBe("accepted");
    expect(seen).toEqual(["order_created"]);
  });
});
