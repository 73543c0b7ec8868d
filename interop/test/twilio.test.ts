import { createHash } from "node:crypto";
import { parse } from "node:querystring";
import { twilio } from "@tidings/core/schemes";
import twilioSdk from "twilio";
import { describe, expect, it } from "vitest";
import { codeOf, describeSender } from "./harness";

const { getExpectedTwilioSignature, validateRequest, validateRequestWithBody } = twilioSdk;
const TOKEN = "9f3c1d2e4b5a69788796a5b4c3d2e1f0";
const OTHER = "0e1d2c3b4a5968778695a4b3c2d1e0f9";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

// An incoming SMS as Twilio posts it: the form's fields, the URL it called signed with them.
const sms = [
  "AccountSid=AC0123456789abcdef0123456789abcdef",
  "ApiVersion=2010-04-01",
  "Body=Hello+there%21+%C3%A9t%C3%A9",
  "From=%2B15005550006",
  "MessageSid=SM0123456789abcdef0123456789abcdef",
  "NumMedia=0",
  "SmsStatus=received",
  "To=%2B15005550010",
].join("&");
const smsUrl = "https://hooks.example.com/twilio/sms?account=1";

describeSender("Twilio, a form", {
  scheme: twilio(),
  secret: TOKEN,
  otherSecret: OTHER,
  body: sms,
  type: "message.received",
  timed: false,
  request: { method: "POST", url: smsUrl },
  sign: (body, secret) => ({ ...FORM, "x-twilio-signature": getExpectedTwilioSignature(secret, smsUrl, parse(body)) }),
  accepts: (body, headers, secret) =>
    validateRequest(secret, headers["x-twilio-signature"] ?? "", smsUrl, parse(body) as Record<string, string>),
});

// A JSON body: only the URL is signed, and it carries the body's SHA-256.
const status = JSON.stringify({ MessageSid: "SM0123456789abcdef0123456789abcdef", MessageStatus: "delivered" });
const jsonUrl = `https://hooks.example.com/twilio/status?bodySHA256=${createHash("sha256").update(status).digest("hex")}`;

describeSender("Twilio, a JSON body", {
  scheme: twilio(),
  secret: TOKEN,
  otherSecret: OTHER,
  body: status,
  type: "message.delivered",
  timed: false,
  request: { method: "POST", url: jsonUrl },
  sign: (_body, secret) => ({
    "content-type": "application/json",
    "x-twilio-signature": getExpectedTwilioSignature(secret, jsonUrl, {}),
  }),
  accepts: (body, headers, secret) =>
    validateRequestWithBody(secret, headers["x-twilio-signature"] ?? "", jsonUrl, body),
});

describe("Twilio, beyond the shared checks", () => {
  const scheme = twilio();
  const verify = (url: string, signature: string, body = sms, headers: Record<string, string> = {}) =>
    codeOf(() =>
      scheme.verify(body, { ...FORM, ...headers, "x-twilio-signature": signature }, TOKEN, {
        request: { method: "POST", url },
      }),
    );

  it("tries the URL with and without its port, as validateRequest does", async () => {
    const params = parse(sms);
    const withPort = getExpectedTwilioSignature(TOKEN, "https://hooks.example.com:443/twilio/sms?account=1", params);
    expect(await verify(smsUrl, withPort)).toBeUndefined();
    expect(validateRequest(TOKEN, withPort, smsUrl, params as Record<string, string>)).toBe(true);
    const without = getExpectedTwilioSignature(TOKEN, smsUrl, params);
    expect(await verify("https://hooks.example.com:443/twilio/sms?account=1", without)).toBeUndefined();
    const otherPort = getExpectedTwilioSignature(TOKEN, "https://hooks.example.com:8443/twilio/sms?account=1", params);
    expect(await verify("https://hooks.example.com:8443/twilio/sms?account=1", otherPort)).toBeUndefined();
    expect(await verify(smsUrl, otherPort)).toBe("signature_mismatch");
  });

  it("signs a name sent twice as Twilio does: its distinct values sorted", async () => {
    const body = "MediaUrl=b&MessageSid=SM1&MediaUrl=a&MediaUrl=b&SmsStatus=received";
    const signature = getExpectedTwilioSignature(TOKEN, smsUrl, parse(body));
    expect(await verify(smsUrl, signature, body)).toBeUndefined();
    const ours = scheme.sign(body, TOKEN, { url: smsUrl })["x-twilio-signature"] ?? "";
    expect(validateRequest(TOKEN, ours, smsUrl, parse(body) as Record<string, string>)).toBe(true);
    const event = await scheme.verifyAsync(body, { ...FORM, "x-twilio-signature": signature }, TOKEN, {
      request: { method: "POST", url: smsUrl },
    });
    expect(event.secretIndex).toBe(0);
  });

  it("verifies a SharedKey's HMAC-SHA256, named in X-Twilio-Webhooks-Signature-Settings", async () => {
    const signature = getExpectedTwilioSignature(TOKEN, smsUrl, parse(sms), "HMAC_SHA256");
    const settings = { "x-twilio-webhooks-signature-settings": "key=webhooks_sharedkey_1,algorithm=HMAC_SHA256" };
    expect(await verify(smsUrl, signature, sms, settings)).toBeUndefined();
    expect(await verify(smsUrl, signature)).toBe("no_supported_signature");
    const unknown = { "x-twilio-webhooks-signature-settings": "algorithm=HMAC_SHA512" };
    expect(await verify(smsUrl, signature, sms, unknown)).toBe("no_supported_signature");
  });

  it("refuses a JSON body that is not the one the signed URL names", async () => {
    const signature = getExpectedTwilioSignature(TOKEN, jsonUrl, {});
    const json = { "content-type": "application/json" };
    expect(await verify(jsonUrl, signature, status, json)).toBeUndefined();
    expect(await verify(jsonUrl, signature, status.replace("delivered", "failed"), json)).toBe("signature_mismatch");
  });

  it("throws a TypeError saying how to give the URL when a standalone verify is given none", () => {
    const headers = { ...FORM, "x-twilio-signature": getExpectedTwilioSignature(TOKEN, smsUrl, parse(sms)) };
    expect(() => scheme.verify(sms, headers, TOKEN)).toThrow(/options\.request/);
  });
});
