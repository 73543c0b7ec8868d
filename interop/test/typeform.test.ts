import { createHmac, timingSafeEqual } from "node:crypto";
import { typeform } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { codeOf, describeSender } from "./harness";

// Typeform publishes no verifying SDK: its documented algorithm, both ways. HMAC-SHA256 of the body under the
// webhook's secret, base64, in `Typeform-Signature: sha256=<base64>`.
const base64 = (value: string, key: string) => createHmac("sha256", key).update(value).digest("base64");

function accepts(payload: string, headers: Record<string, string>, key: string): boolean {
  const expected = Buffer.from(`sha256=${base64(payload, key)}`);
  const given = Buffer.from(headers["typeform-signature"] ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const secret = "typeform-webhook-secret";
const body = JSON.stringify({
  event_id: "01HV8X2ACMA2GZ3HE1XPMBQZ0F",
  event_type: "form_response",
  form_response: { form_id: "lT4Z3j", token: "a3a12ec67a1365927098a606107fac15", submitted_at: "2026-01-01T00:00:00Z" },
});

describeSender("Typeform", {
  scheme: typeform(),
  secret,
  otherSecret: "typeform-other-secret",
  body,
  type: "form_response",
  timed: false,
  sign: (payload, key) => ({ "typeform-signature": `sha256=${base64(payload, key)}` }),
  accepts,
});

describe("Typeform, beyond the harness", () => {
  it("refuses a signature spelled in non-canonical base64 (one spelling per signature)", async () => {
    const canonical = base64(body, secret);
    // The last character before `=` carries 2 bits a decoder ignores: flip one of them.
    const last = canonical.charAt(42);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const other = alphabet.charAt(alphabet.indexOf(last) ^ 1);
    const spelled = `${canonical.slice(0, 42)}${other}=`;
    const code = await codeOf(() => typeform().verify(body, { "typeform-signature": `sha256=${spelled}` }, secret));
    expect(code).toBe("no_supported_signature");
  });
});
