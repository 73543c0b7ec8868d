import { createHmac, timingSafeEqual } from "node:crypto";
import { vercel } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { codeOf, describeSender } from "./harness";

// Vercel publishes no verifying SDK: its documented algorithm, both ways. HMAC-SHA1 of the body under the webhook's
// secret, hex, in `x-vercel-signature`.
const hex = (value: string, key: string) => createHmac("sha1", key).update(value).digest("hex");

function accepts(payload: string, headers: Record<string, string>, key: string): boolean {
  const expected = Buffer.from(hex(payload, key));
  const given = Buffer.from(headers["x-vercel-signature"] ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const secret = "vercel-webhook-secret-Qm9v";
const body = JSON.stringify({
  id: "uyvc3O1KqEJtLrZ2R8B2T",
  type: "deployment.succeeded",
  createdAt: 1767225600000,
  region: "iad1",
  payload: { deployment: { id: "dpl_2euZBFqxYdDMDG1jTrHFnNZ2eUVa", url: "acme-4f2a.vercel.app" } },
});

describeSender("Vercel", {
  scheme: vercel(),
  secret,
  otherSecret: "vercel-other-secret",
  body,
  type: "deployment.succeeded",
  timed: false,
  sign: (payload, key) => ({ "x-vercel-signature": hex(payload, key) }),
  accepts,
});

describe("Vercel, beyond the harness", () => {
  it("refuses an upper-case hex spelling (one spelling per signature)", async () => {
    const code = await codeOf(() =>
      vercel().verify(body, { "x-vercel-signature": hex(body, secret).toUpperCase() }, secret),
    );
    expect(code).toBe("no_supported_signature");
  });
});
