import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createReceiver } from "../src/entries";
import { answer, defineScheme, requiredHeader } from "../src/entries/schemes";
import { senderUrl } from "../src/receiver/request-url";

const DIRECT = { publicUrl: undefined, trustProxy: false };

describe("the URL the sender called", () => {
  it("is the adapter's absolute URL, or its path on the Host header, when nothing is in front", () => {
    expect(senderUrl("https://a.example/hooks?x=1", {}, DIRECT)).toBe("https://a.example/hooks?x=1");
    expect(senderUrl("/hooks?x=1", { host: "a.example:8080" }, DIRECT)).toBe("http://a.example:8080/hooks?x=1");
    expect(senderUrl("/hooks", {}, DIRECT)).toBeUndefined();
    expect(senderUrl(undefined, { host: "a.example" }, DIRECT)).toBeUndefined();
  });

  it("is publicUrl followed by the path and query received, whatever the proxy wrote in Host", () => {
    const rule = { publicUrl: "https://hooks.example.com/api", trustProxy: false };
    const headers = { host: "10.0.0.7:3000", "x-forwarded-host": "evil.example" };
    expect(senderUrl("http://10.0.0.7:3000/sms?a=1&b=2", headers, rule)).toBe(
      "https://hooks.example.com/api/sms?a=1&b=2",
    );
    expect(senderUrl("/sms", headers, rule)).toBe("https://hooks.example.com/api/sms");
    expect(senderUrl("http://10.0.0.7:3000?a=1", headers, rule)).toBe("https://hooks.example.com/api/?a=1");
  });

  it("takes the first forwarded protocol and host only with trustProxy", () => {
    const headers = { host: "10.0.0.7:3000", "x-forwarded-proto": "https, http", "x-forwarded-host": "a.example, b" };
    expect(senderUrl("/sms?a=1", headers, { publicUrl: undefined, trustProxy: true })).toBe(
      "https://a.example/sms?a=1",
    );
    expect(senderUrl("/sms?a=1", headers, DIRECT)).toBe("http://10.0.0.7:3000/sms?a=1");
  });

  it("keeps every path and query as received, after publicUrl", () => {
    const rule = { publicUrl: "https://hooks.example.com", trustProxy: false };
    fc.assert(
      fc.property(fc.webPath(), fc.webQueryParameters(), (path, query) => {
        const received = `/${path.replace(/^\//, "")}${query ? `?${query}` : ""}`;
        expect(senderUrl(`http://internal:1${received}`, {}, rule)).toBe(`https://hooks.example.com${received}`);
      }),
    );
  });

  it("refuses a publicUrl that is not an http(s) URL without query or fragment, when the Receiver is created", () => {
    for (const publicUrl of [
      "hooks.example.com",
      "ftp://a.example",
      "https://a.example/?x=1",
      "https://a.example/#f",
    ]) {
      expect(() => createReceiver({ secret: "s", publicUrl })).toThrow(TypeError);
    }
  });
});

// A sender that signs the URL it called and the body: HMAC-SHA256 of `<METHOD> <url>\n<body>`, hex.
const urlSigned = defineScheme({
  name: "url-signed",
  signatureHeader: "x-url-signature",
  readsRequest: true,
  read(payload, headers, secrets, toleranceSeconds, request) {
    if (!request) throw new TypeError("url-signed signs the URL: no URL was given");
    const signature = requiredHeader(headers, "x-url-signature", "X-Url-Signature");
    const content = { prefix: `${request.method} ${request.url}\n`, payload, signatures: [signature] };
    return { content, secrets, timestamp: undefined, toleranceSeconds };
  },
  typeOf: (event) => event.type as string,
  idOf: (event) => event.id as string,
  handshake: ({ method, url }) => {
    const challenge = method === "GET" && url ? new URL(url).searchParams.get("challenge") : null;
    return challenge === null ? undefined : answer(challenge, "text/plain");
  },
  sign: () => ({}),
});

const signUrl = (url: string, body: string) => createHmac("sha256", "s").update(`POST ${url}\n${body}`).digest("hex");

describe("a scheme that signs the request's URL, in a Receiver", () => {
  const body = JSON.stringify({ id: "e1", type: "sms.received" });

  it("verifies the URL rebuilt from publicUrl, and refuses one signed for another URL", async () => {
    const receiver = createReceiver({ scheme: urlSigned, secret: "s", publicUrl: "https://hooks.example.com" });
    const url = "http://127.0.0.1:3000/sms?account=1";
    const rawBody = Buffer.from(body);
    const good = { "x-url-signature": signUrl("https://hooks.example.com/sms?account=1", body) };
    expect((await receiver.receive({ rawBody, headers: good, url })).code).toBe("accepted");
    const signedForInternal = { "x-url-signature": signUrl(url, body) };
    expect((await receiver.receive({ rawBody, headers: signedForInternal, url })).code).toBe("signature_mismatch");
  });

  it("answers 500 when the adapter gave no URL, as the app must fix that, not the sender", async () => {
    const receiver = createReceiver({ scheme: urlSigned, secret: "s", logger: { error() {}, warn() {} } });
    const result = await receiver.receive({ rawBody: Buffer.from(body), headers: { "x-url-signature": "00" } });
    expect(result.status).toBe(500);
  });

  it("answers 500, never throwing, when the adapter's url() throws", async () => {
    const receiver = createReceiver({ scheme: urlSigned, secret: "s", logger: { error() {}, warn() {} } });
    const url = () => {
      throw new Error("the framework lost the request's URL");
    };
    const result = await receiver.handle({ headers: {}, readBody: () => Buffer.from(body), url });
    expect(result.status).toBe(500);
    const get = await receiver.handle({ method: "GET", headers: {}, readBody: () => Buffer.from(body), url });
    expect(get.status).toBe(405);
  });

  it("answers a GET handshake before any body is read; other GETs are 405", async () => {
    const receiver = createReceiver({ scheme: urlSigned, secret: "s" });
    const readBody = () => {
      throw new Error("no body is read for a handshake");
    };
    const get = (url: string) =>
      receiver.handle({ method: "GET", headers: { host: "a.example" }, readBody, url: () => url });
    const challenged = await get("/sms?challenge=abc123");
    expect([challenged.status, challenged.body, challenged.headers["content-type"]]).toEqual([
      200,
      "abc123",
      "text/plain",
    ]);
    expect((await get("/sms")).status).toBe(405);
    const plain = createReceiver({ secret: "s" });
    expect((await plain.handle({ method: "GET", headers: {}, readBody, url: () => "/x?challenge=1" })).status).toBe(
      405,
    );
  });

  it("answers 500, never throwing, when a handshake throws", async () => {
    const throwing = defineScheme({
      ...urlSigned,
      handshake: () => {
        throw new Error("broken handshake");
      },
    });
    const receiver = createReceiver({ scheme: throwing, secret: "s", logger: { error() {}, warn() {} } });
    const result = await receiver.handle({
      method: "GET",
      headers: {},
      readBody: () => new Uint8Array(),
      url: () => "/",
    });
    expect(result.status).toBe(500);
  });
});
