import { createHmac } from "node:crypto";
import { LinearWebhookClient } from "@linear/sdk/webhooks";
import { linear } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { codeOf, describeSender } from "./harness";

const secret = "lin_wh_4f0d2c9a7b1e5f3a8c6d";
const bodyAt = (milliseconds: number | undefined) =>
  JSON.stringify({
    action: "create",
    type: "Issue",
    createdAt: "2026-01-01T00:00:00.000Z",
    data: { id: "2174add1-f7c8-44e3-bbf3-2d60b5ea8bc9", title: "Checkout fails on Safari", teamId: "72b2a2dc" },
    url: "https://linear.app/acme/issue/ENG-42",
    organizationId: "8b3c1d2e",
    webhookId: "000042e3-d123-4980-b49f-8e140eef9329",
    webhookTimestamp: milliseconds,
  });
// Linear signs the time inside the body: this one is sent now.
const body = bodyAt(Date.now());
const client = new LinearWebhookClient(secret);

function accepts(payload: string, headers: Record<string, string>, key: string): boolean {
  try {
    return new LinearWebhookClient(key).verify(Buffer.from(payload), headers["linear-signature"] as string);
  } catch {
    return false;
  }
}

// Linear's SDK verifies only; deliveries are signed with Linear's documented algorithm.
const hex = (value: string, key: string) => createHmac("sha256", key).update(value).digest("hex");

// `timed: false` for the harness, whose old delivery differs only in its headers: Linear's time is in the body, and
// the checks below send old bodies.
describeSender("Linear", {
  scheme: linear(),
  secret,
  otherSecret: "lin_wh_other",
  body,
  type: "Issue.create",
  timed: false,
  sign: (payload, key) => ({ "linear-signature": hex(payload, key) }),
  accepts,
});

describe("Linear, beyond the harness", () => {
  it("refuses a body whose webhookTimestamp is old, as the SDK does", async () => {
    const old = bodyAt(Date.now() - 3_600_000);
    const headers = { "linear-signature": hex(old, secret) };
    expect(await codeOf(() => linear().verify(old, headers, secret))).toBe("timestamp_too_old");
    expect(accepts(old, headers, secret)).toBe(false);
  });

  it("refuses a body with no webhookTimestamp, as the SDK does", async () => {
    const untimed = bodyAt(undefined);
    const headers = { "linear-signature": hex(untimed, secret) };
    expect(await codeOf(() => linear().verify(untimed, headers, secret))).toBe("invalid_payload");
    expect(accepts(untimed, headers, secret)).toBe(false);
  });

  it("parses what Tidings signs with the SDK's parseData", () => {
    const headers = linear().sign(body, secret);
    expect(client.parseData(Buffer.from(body), headers["linear-signature"] as string)).toMatchObject({ type: "Issue" });
  });
});
