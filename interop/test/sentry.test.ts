import { createHmac, timingSafeEqual } from "node:crypto";
import { createReceiver } from "@tidings/core";
import { sentry } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { codeOf, describeSender } from "./harness";

// Sentry publishes no verifying SDK: its documented algorithm, both ways. HMAC-SHA256 of the body under the
// integration's client secret, hex, in `Sentry-Hook-Signature`.
const hex = (value: string, key: string) => createHmac("sha256", key).update(value).digest("hex");

function accepts(payload: string, headers: Record<string, string>, key: string): boolean {
  const expected = Buffer.from(hex(payload, key));
  const given = Buffer.from(headers["sentry-hook-signature"] ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const secret = "4b1c8e2f9a0d3c7b6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d";
const body = JSON.stringify({
  action: "created",
  installation: { uuid: "7a485448-a9e2-4c85-8a3c-4f44175783c9" },
  data: { issue: { id: "1170820242", title: "TypeError: Cannot read properties of undefined", status: "unresolved" } },
  actor: { type: "application", id: "sentry", name: "Sentry" },
});
const headers = (payload: string, key: string, timestamp: number) => ({
  "sentry-hook-signature": hex(payload, key),
  "sentry-hook-resource": "issue",
  "sentry-hook-timestamp": String(timestamp),
  "request-id": "c3b7e5a2-3d4f-4a1b-9c8d-7e6f5a4b3c2d",
});

describeSender("Sentry", {
  scheme: sentry(),
  secret,
  otherSecret: "0".repeat(64),
  body,
  type: "issue.created",
  timed: false,
  sign: headers,
  accepts,
});

describe("Sentry, beyond the harness", () => {
  it("refuses a resource header that could reach another resource's handlers", async () => {
    const receiver = createReceiver({ scheme: sentry(), secret });
    for (const resource of ["issue.created.evil", "Issue", "issue created"]) {
      const sent = { ...headers(body, secret, 0), "sentry-hook-resource": resource };
      expect((await receiver.receive({ rawBody: Buffer.from(body), headers: sent })).code).toBe("malformed_header");
    }
  });

  it("types a body whose action is not a word by its resource alone", () => {
    const event = { action: "created.evil", data: {} };
    expect(sentry().typeOf(event, { "sentry-hook-resource": "issue" })).toBe("issue");
  });

  it("verifies without the unsigned timestamp header", async () => {
    const { "sentry-hook-timestamp": _, ...rest } = headers(body, secret, 0);
    expect(await codeOf(() => sentry().verify(body, rest, secret))).toBeUndefined();
  });
});
