import { Signature } from "@hubspot/api-client";
import { hubspot } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { codeOf, describeSender } from "./harness";

const SECRET = "8f1c2d3e-4a5b-6c7d-8e9f-0a1b2c3d4e5f";
const URL = "https://hooks.example.com/hubspot?portal=62515";

// A webhook batch: two events of two subscriptions in one request.
const body = JSON.stringify([
  {
    eventId: 100,
    subscriptionId: 1234,
    portalId: 62515,
    appId: 54321,
    occurredAt: 1767225600000,
    subscriptionType: "contact.creation",
    attemptNumber: 0,
    objectId: 123,
    changeFlag: "CREATED",
    changeSource: "CRM",
  },
  {
    eventId: 101,
    subscriptionId: 1235,
    portalId: 62515,
    appId: 54321,
    occurredAt: 1767225600001,
    subscriptionType: "contact.propertyChange",
    attemptNumber: 0,
    objectId: 123,
    propertyName: "email",
    propertyValue: "a@example.com",
    changeSource: "CRM",
  },
]);

const hubspotHeaders = (text: string, secret: string, seconds: number, url = URL, method = "POST") => {
  const timestamp = seconds * 1000;
  const signature = Signature.getSignature(method, "v3", {
    signature: "",
    clientSecret: secret,
    requestBody: text,
    url,
    timestamp,
  });
  return { "x-hubspot-signature-v3": signature, "x-hubspot-request-timestamp": String(timestamp) };
};

describeSender("HubSpot", {
  scheme: hubspot(),
  secret: SECRET,
  otherSecret: "0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d",
  body,
  type: "batch",
  timed: true,
  request: { method: "POST", url: URL },
  sign: (text, secret, timestamp) => hubspotHeaders(text, secret, timestamp),
  accepts(text, headers, secret) {
    try {
      return Signature.isValid({
        signatureVersion: "v3",
        signature: headers["x-hubspot-signature-v3"] ?? "",
        clientSecret: secret,
        requestBody: text,
        url: URL,
        timestamp: Number(headers["x-hubspot-request-timestamp"]),
      });
    } catch {
      return false;
    }
  },
});

describe("HubSpot, beyond the shared checks", () => {
  const scheme = hubspot();
  const now = () => Math.floor(Date.now() / 1000);

  it("signs the URI with the escapes HubSpot documents decoded, and no others", async () => {
    const received = "https://hooks.example.com/hubspot?next=a%3Ab%2Fc%40d&space=a%20b";
    const signed = "https://hooks.example.com/hubspot?next=a:b/c@d&space=a%20b";
    const headers = hubspotHeaders(body, SECRET, now(), signed);
    const request = { method: "POST", url: received };
    expect(await codeOf(() => scheme.verify(body, headers, SECRET, { request }))).toBeUndefined();
    const undecoded = hubspotHeaders(body, SECRET, now(), received);
    expect(await codeOf(() => scheme.verify(body, undecoded, SECRET, { request }))).toBe("signature_mismatch");
  });

  it("signs the method", async () => {
    const headers = hubspotHeaders(body, SECRET, now(), URL, "GET");
    const request = { method: "POST", url: URL };
    expect(await codeOf(() => scheme.verify(body, headers, SECRET, { request }))).toBe("signature_mismatch");
    expect(
      await codeOf(() => scheme.verify(body, headers, SECRET, { request: { ...request, method: "GET" } })),
    ).toBeUndefined();
  });

  it("dedups a batch by its events, so that HubSpot's retry (signed anew, attemptNumber raised) is a duplicate", () => {
    const first = { events: JSON.parse(body) };
    const retry = { events: JSON.parse(body.replaceAll('"attemptNumber":0', '"attemptNumber":1')) };
    const id = scheme.idOf(first, Buffer.from(body), {});
    expect(id).toBe("1234.100.1767225600000,1235.101.1767225600001");
    expect(scheme.idOf(retry, Buffer.from(body), {})).toBe(id);
  });

  it("types a JSON object by its subscriptionType, and refuses a timestamp that is not digits", async () => {
    const object = JSON.stringify({ subscriptionType: "object.creation", objectId: 1 });
    expect(scheme.typeOf(scheme.parse?.(Buffer.from(object), {}) ?? {}, {})).toBe("object.creation");
    const headers = { ...hubspotHeaders(body, SECRET, now()), "x-hubspot-request-timestamp": "12.5" };
    const request = { method: "POST", url: URL };
    expect(await codeOf(() => scheme.verify(body, headers, SECRET, { request }))).toBe("malformed_header");
  });
});
