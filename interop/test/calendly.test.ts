import { createHmac, timingSafeEqual } from "node:crypto";
import { calendly } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { describeSender } from "./harness";

// Calendly publishes no verifying SDK: its documented algorithm, both ways. HMAC-SHA256 of `<t>.<body>` under the
// webhook signing key, hex, in `Calendly-Webhook-Signature: t=<t>,v1=<hex>`.
const hex = (value: string, key: string) => createHmac("sha256", key).update(value).digest("hex");

function accepts(payload: string, headers: Record<string, string>, key: string): boolean {
  const pairs = Object.fromEntries(
    (headers["calendly-webhook-signature"] ?? "").split(",").map((pair) => pair.split("=") as [string, string]),
  );
  const expected = Buffer.from(hex(`${pairs.t}.${payload}`, key));
  const given = Buffer.from(pairs.v1 ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const secret = "Yt3v0hDl1gs8XJv7wJp2q9kZ";
const body = JSON.stringify({
  created_at: "2026-01-01T00:00:00.000000Z",
  created_by: "https://api.calendly.com/users/AAAAAAAAAAAAAAAA",
  event: "invitee.created",
  payload: {
    uri: "https://api.calendly.com/scheduled_events/GBGBDCAADAEDCRZ2/invitees/7c1d4c9f",
    email: "ada@example.com",
    status: "active",
  },
});

describeSender("Calendly", {
  scheme: calendly(),
  secret,
  otherSecret: "another-signing-key",
  body,
  type: "invitee.created",
  timed: true,
  sign: (payload, key, timestamp) => ({
    "calendly-webhook-signature": `t=${timestamp},v1=${hex(`${timestamp}.${payload}`, key)}`,
  }),
  accepts,
});

describe("Calendly, beyond the harness", () => {
  it("keeps an invitee's cancellation apart from its booking, and a second no-show apart from the first", () => {
    const event = (name: string, createdAt: string) =>
      JSON.parse(body.replace("invitee.created", name).replace("2026-01-01T00:00:00.000000Z", createdAt));
    const ids = [
      calendly().idOf(event("invitee.created", "2026-01-01T00:00:00Z"), new Uint8Array(), {}),
      calendly().idOf(event("invitee.canceled", "2026-01-01T00:00:00Z"), new Uint8Array(), {}),
      calendly().idOf(event("invitee_no_show.created", "2026-01-02T00:00:00Z"), new Uint8Array(), {}),
      calendly().idOf(event("invitee_no_show.created", "2026-01-03T00:00:00Z"), new Uint8Array(), {}),
    ];
    expect(new Set(ids).size).toBe(4);
  });
});
