import { createReceiver, type DeliveryContext } from "@tidings/core";
import { dropbox, serviceSignature, twilio } from "@tidings/core/schemes";
import { afterEach, expect, it } from "vitest";
import { type ForwardingProxy, startForwardingProxy } from "../support/forwarding-proxy";
import { delivery, eventBody, SECRET } from "./deliveries";
import { sendOverHttp } from "./http-client";
import { type AnyReceiver, type RunningApp, WEBHOOK_PATH, type WireRequest, type WireResponse } from "./target";

/** A query a sender may register in the URL: %-escapes (a slash, UTF-8) and a `+`, all signed as sent. */
export const QUERY = "?account=acct%2F1&to=+15551234&note=caf%C3%A9";
const OTHER_QUERY = "?account=acct%2F2&to=+15551234&note=caf%C3%A9";

/** Where an app that runs in process (no port) is called: the `Host` it is sent. */
const IN_PROCESS = "http://127.0.0.1";

type UrlOptions = { publicUrl?: string; trustProxy?: boolean };
type Send = (wire: WireRequest, path: string) => Promise<WireResponse>;

function errorCode(response: WireResponse): string | undefined {
  return (JSON.parse(response.body) as { error?: { code?: string } }).error?.code;
}

/** A form as a messaging sender posts it: fields that need escaping, a `+`, non-ASCII. */
function formBody(sid: string): Uint8Array {
  const fields = {
    MessageSid: sid,
    EventType: "message.received",
    From: "+15550001111",
    Body: "Hi & bye, ça va? 100%",
  };
  return new TextEncoder().encode(new URLSearchParams(fields).toString());
}

function signedForm(body: Uint8Array, url: string): WireRequest {
  const headers = { "content-type": "application/x-www-form-urlencoded", ...twilio().sign(body, SECRET, { url }) };
  return { method: "POST", headers, body };
}

/** Sends to `path` on `base` (the app, or the proxy at `address`), with the `Host` of `base`. */
function sender(base: string, send: (wire: WireRequest) => Promise<WireResponse>): Send {
  const host = new URL(base).host;
  return (wire, path) => send({ ...wire, path, headers: { ...wire.headers, host } });
}

const mismatch = [400, "signature_mismatch"];

/**
 * What every adapter must give Twilio's scheme, which signs the URL, and Dropbox's, which answers a GET challenge: the URL the
 * sender called, query included, byte for byte, and rebuilt behind a reverse proxy that rewrites the host, the port
 * and the path, from `publicUrl` or from the proxy's forwarded headers (`trustProxy`).
 */
export function describeRequestUrls(start: (receiver: AnyReceiver) => Promise<RunningApp>): void {
  const proxies: ForwardingProxy[] = [];
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  });

  function formReceiver(options: UrlOptions = {}) {
    const seen: { event: unknown; context: DeliveryContext }[] = [];
    const receiver = createReceiver({ scheme: twilio(), secret: SECRET, logger: { error() {} }, ...options });
    receiver.onAny((event, context) => {
      seen.push({ event, context });
    });
    return { receiver, seen };
  }

  async function direct(receiver: AnyReceiver) {
    const app = await start(receiver);
    const base = app.url ?? IN_PROCESS;
    return { base, send: sender(base, (wire) => app.send(wire)) };
  }

  /** The app behind a proxy; the receiver is made once the proxy's URL is known. */
  async function proxied(receiverFor: (proxyUrl: string) => AnyReceiver, stripPrefix?: string) {
    let app: RunningApp | undefined;
    const proxy = await startForwardingProxy({
      upstreamHost: () => new URL(app?.url ?? IN_PROCESS).host,
      forward: (request) => (app as RunningApp).send(request),
      ...(stripPrefix ? { stripPrefix } : {}),
    });
    proxies.push(proxy);
    app = await start(receiverFor(proxy.url));
    return { base: proxy.url, send: sender(proxy.url, (wire) => sendOverHttp(proxy.address, WEBHOOK_PATH, wire)) };
  }

  it("verifies a form signed over the URL called, query as sent; another path, query or host is a mismatch", async () => {
    const { receiver, seen } = formReceiver();
    const { base, send } = await direct(receiver);
    const path = `${WEBHOOK_PATH}${QUERY}`;
    const body = formBody("SM1");
    const signed = signedForm(body, base + path);
    const first = await send(signed, path);
    expect([first.status, first.body]).toEqual([200, '{"received":true}']);
    const replay = await send(signed, path);
    expect(JSON.parse(replay.body)).toEqual({ received: true, duplicate: true });
    expect(seen.map(({ context }) => [context.type, context.deliveryKey])).toEqual([["message.received", "event:SM1"]]);
    expect(seen[0]?.event).toEqual(Object.fromEntries(new URLSearchParams(new TextDecoder().decode(body))));

    const otherQuery = await send(signedForm(formBody("SM2"), base + path), `${WEBHOOK_PATH}${OTHER_QUERY}`);
    const otherPath = await send(signedForm(formBody("SM3"), `${base}/elsewhere${QUERY}`), path);
    const otherHost = await send(signedForm(formBody("SM4"), `http://127.0.0.2:1${path}`), path);
    const tampered = await send({ ...signedForm(formBody("SM5"), base + path), body: formBody("SM6") }, path);
    expect([otherQuery, otherPath, otherHost, tampered].map((r) => [r.status, errorCode(r)])).toEqual([
      mismatch,
      mismatch,
      mismatch,
      mismatch,
    ]);
    expect(seen).toHaveLength(1);
  });

  it("behind a proxy that rewrites the host, the port and the path, verifies the URL publicUrl rebuilds", async () => {
    let seen: unknown[] = [];
    const { base, send } = await proxied((proxyUrl) => {
      const made = formReceiver({ publicUrl: `${proxyUrl}/api` });
      seen = made.seen;
      return made.receiver;
    }, "/api");
    const path = `/api${WEBHOOK_PATH}${QUERY}`;
    const accepted = await send(signedForm(formBody("SM10"), base + path), path);
    expect([accepted.status, accepted.body]).toEqual([200, '{"received":true}']);
    const otherQuery = await send(signedForm(formBody("SM11"), base + path), `/api${WEBHOOK_PATH}${OTHER_QUERY}`);
    expect([otherQuery.status, errorCode(otherQuery)]).toEqual(mismatch);
    expect(seen).toHaveLength(1);
  });

  it("behind a proxy that overwrites X-Forwarded-Host and -Proto, verifies the URL trustProxy rebuilds", async () => {
    let seen: unknown[] = [];
    const { base, send } = await proxied(() => {
      const made = formReceiver({ trustProxy: true });
      seen = made.seen;
      return made.receiver;
    });
    const path = `${WEBHOOK_PATH}${QUERY}`;
    const accepted = await send(signedForm(formBody("SM20"), base + path), path);
    expect([accepted.status, accepted.body]).toEqual([200, '{"received":true}']);
    const otherQuery = await send(signedForm(formBody("SM21"), base + path), `${WEBHOOK_PATH}${OTHER_QUERY}`);
    // A client naming another host is overwritten by the proxy: what it signed for that host does not verify.
    const spoofed = signedForm(formBody("SM22"), `http://hooks.example.com${path}`);
    const spoofing = await send(
      { ...spoofed, headers: { ...spoofed.headers, "x-forwarded-host": "hooks.example.com" } },
      path,
    );
    expect([otherQuery, spoofing].map((r) => [r.status, errorCode(r)])).toEqual([mismatch, mismatch]);
    expect(seen).toHaveLength(1);
  });

  it("behind a proxy, with neither publicUrl nor trustProxy, checks the URL the app saw: the signed one fails", async () => {
    const { receiver, seen } = formReceiver();
    const { base, send } = await proxied(() => receiver);
    const path = `${WEBHOOK_PATH}${QUERY}`;
    const refused = await send(signedForm(formBody("SM30"), base + path), path);
    expect([refused.status, errorCode(refused)]).toEqual(mismatch);
    expect(seen).toHaveLength(0);
  });

  it("answers a GET challenge as plain text, directly and behind a proxy, and still takes deliveries", async () => {
    const handled: string[] = [];
    const receiver = createReceiver({
      // Dropbox's GET challenge before any delivery, and the service's deliveries on the same route.
      scheme: [serviceSignature(), dropbox()],
      secret: SECRET,
      logger: { error() {} },
      trustProxy: true,
    });
    receiver.onAny((_event, context) => {
      handled.push(context.type);
    });
    const { send } = await direct(receiver);
    const challenged = await send({ method: "GET", headers: {} }, `${WEBHOOK_PATH}?challenge=tf6wbJNhE0mKo8rB%2B1`);
    expect([challenged.status, challenged.body]).toEqual([200, "tf6wbJNhE0mKo8rB+1"]);
    expect(challenged.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const plain = await send({ method: "GET", headers: {} }, WEBHOOK_PATH);
    expect([plain.status, plain.headers.allow]).toEqual([405, "POST"]);
    const posted = await send(delivery(eventBody()), WEBHOOK_PATH);
    expect(posted.status).toBe(200);

    const behind = await proxied(() => receiver);
    const proxiedChallenge = await behind.send({ method: "GET", headers: {} }, `${WEBHOOK_PATH}?x=1&challenge=c%2Fd`);
    expect([proxiedChallenge.status, proxiedChallenge.body]).toEqual([200, "c/d"]);
    expect(handled).toEqual(["message.delivered"]);
  });
}
