// QStash signs a JWT (HS256) whose claims hold the URL it called and the body's hash; @upstash/qstash's Receiver
// verifies. QStash's signer is its server: the test signs as its docs say (iss, sub, nbf, exp, body).
import { createHash, createHmac } from "node:crypto";
import { qstash } from "@tidings/core/schemes";
import { Receiver } from "@upstash/qstash";
import { describe, expect, it } from "vitest";
import { codeOf, describeSender } from "./harness";

const url = "https://api.example.com/qstash/orders?region=eu";
const current = "sig_7RvLjqfZBvP5KEUimQCE1pvpLuou";
const next = "sig_5ZB6DVzB1wjE8S6rZ7eenA8Pdnhs";
const body = JSON.stringify({ orderId: "ord_1", total: 12 });

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function jwt(
  claims: Record<string, unknown>,
  secret: string,
  header: Record<string, unknown> = { alg: "HS256", typ: "JWT" },
) {
  const input = `${b64url(header)}.${b64url(claims)}`;
  return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`;
}

function claims(payload: string, timestamp: number, overrides: Record<string, unknown> = {}) {
  const hash = createHash("sha256").update(payload).digest("base64url");
  return {
    iss: "Upstash",
    sub: url,
    iat: timestamp,
    nbf: timestamp,
    exp: timestamp + 300,
    jti: "jwt_1",
    body: hash,
    ...overrides,
  };
}

const upstashSigns = (payload: string, secret: string, timestamp: number) => ({
  "upstash-signature": jwt(claims(payload, timestamp), secret),
  "upstash-message-id": "msg_26hZCxZCuWyyTWPmSVBrNC1RADwpgWxPcak2rQD51EMjFMuzcW7qYXpPiDyw4Gd",
});

describeSender("Upstash QStash", {
  scheme: qstash(),
  secret: current,
  otherSecret: next,
  body,
  type: "message",
  timed: true,
  request: { method: "POST", url },
  sign: upstashSigns,
  async accepts(payload, headers, secret) {
    const receiver = new Receiver({ currentSigningKey: secret, nextSigningKey: secret });
    try {
      return await receiver.verify({ signature: headers["upstash-signature"] ?? "", body: payload, url });
    } catch {
      return false;
    }
  },
});

describe("QStash's JWT", () => {
  const request = { method: "POST", url };
  const now = Math.floor(Date.now() / 1000);
  const verify = (token: string) => () => qstash().verify(body, { "upstash-signature": token }, current, { request });

  it("verifies with the next signing key once the current one is rolled", async () => {
    const headers = upstashSigns(body, next, now);
    expect(qstash().verify(body, headers, [current, next], { request }).secretIndex).toBe(1);
    expect(
      await new Receiver({ currentSigningKey: current, nextSigningKey: next }).verify({
        signature: headers["upstash-signature"],
        body,
        url,
      }),
    ).toBe(true);
  });

  it("refuses alg none, HS512 and RS256 before any HMAC, and the rest with typed codes", async () => {
    const good = claims(body, now);
    expect(await codeOf(verify(`${b64url({ alg: "none" })}.${b64url(good)}.`))).toBe("malformed_header");
    expect(await codeOf(verify(jwt(good, current, { alg: "none", typ: "JWT" })))).toBe("no_supported_signature");
    expect(await codeOf(verify(jwt(good, current, { alg: "HS512", typ: "JWT" })))).toBe("no_supported_signature");
    expect(await codeOf(verify(jwt(good, current, { alg: "RS256", typ: "JWT" })))).toBe("no_supported_signature");
    expect(await codeOf(verify(jwt(claims("{}", now), current)))).toBe("signature_mismatch");
    expect(await codeOf(verify(jwt(claims(body, now, { iss: "Other" }), current)))).toBe("signature_mismatch");
    expect(await codeOf(verify(jwt(claims(body, now, { sub: `${url}&x=1` }), current)))).toBe("signature_mismatch");
    expect(await codeOf(verify(jwt(claims(body, now - 400), current)))).toBe("timestamp_too_old");
    expect(await codeOf(verify(jwt(claims(body, now - 100, { exp: now - 10 }), current)))).toBe("timestamp_too_old");
  });
});
