// Vonage signs a JWT (HS256) in `Authorization: Bearer`, its `payload_hash` the body's SHA-256; @vonage/jwt's
// verifySignature checks the JWT, and the test checks `payload_hash` as Vonage's docs say.
import { createHash, createHmac } from "node:crypto";
import { vonage } from "@tidings/core/schemes";
import { verifySignature } from "@vonage/jwt";
import { describe, expect, it } from "vitest";
import { codeOf, describeSender } from "./harness";

const secret = "5jVqxzJXUBBwnMGNvVsEAFHhCKbg6KFLHLLe4xaFbMXMAvzCeL";
const body = JSON.stringify({
  message_uuid: "aaaaaaaa-bbbb-4ccc-8ddd-0123456789ab",
  to: "447700900000",
  from: "Acme",
  timestamp: "2025-01-01T12:00:00.000Z",
  status: "delivered",
  channel: "sms",
});

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const hashOf = (payload: string) => createHash("sha256").update(payload).digest("hex");

function jwt(claims: Record<string, unknown>, key: string, alg = "HS256") {
  const input = `${b64url({ alg, typ: "JWT" })}.${b64url(claims)}`;
  return `${input}.${createHmac("sha256", key).update(input).digest("base64url")}`;
}

describeSender("Vonage", {
  scheme: vonage(),
  secret,
  otherSecret: "another signature secret",
  body,
  type: "status.delivered",
  timed: true,
  sign: (payload, key, iat) => ({
    authorization: `Bearer ${jwt({ iat, jti: "jti-1", iss: "Vonage", payload_hash: hashOf(payload), api_key: "abcd1234" }, key)}`,
  }),
  accepts(payload, headers, key) {
    const token = (headers.authorization ?? "").replace(/^Bearer /, "");
    if (!verifySignature(token, key)) return false;
    const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());
    return claims.payload_hash === hashOf(payload);
  },
});

describe("Vonage's JWT", () => {
  const now = Math.floor(Date.now() / 1000);
  const verify =
    (token: string, payload = body) =>
    () =>
      vonage().verify(payload, { authorization: `Bearer ${token}` }, secret);

  it("refuses other algorithms, a wrong payload_hash, and an old iat with typed codes", async () => {
    const claims = { iat: now, payload_hash: hashOf(body) };
    expect(await codeOf(verify(jwt(claims, secret)))).toBeUndefined();
    expect(await codeOf(verify(jwt(claims, secret, "none")))).toBe("no_supported_signature");
    expect(await codeOf(verify(jwt(claims, secret, "HS512")))).toBe("no_supported_signature");
    expect(await codeOf(verify(jwt(claims, secret, "RS256")))).toBe("no_supported_signature");
    expect(await codeOf(verify(jwt({ ...claims, payload_hash: hashOf("{}") }, secret)))).toBe("signature_mismatch");
    expect(await codeOf(verify(jwt({ ...claims, iat: now - 3600 }, secret)))).toBe("timestamp_too_old");
    expect(await codeOf(verify(jwt({ payload_hash: hashOf(body) }, secret)))).toBe("malformed_header");
  });
});
