import { gzipSync } from "node:zlib";
import { getTestServer } from "@google-cloud/functions-framework/testing";
import { afterEach, describe, expect, it } from "vitest";
import { delivery, eventBody } from "../conformance/deliveries";
import { listenOnLoopback } from "../conformance/http-client";
import type { RunningApp } from "../conformance/target";
import { recordingReceiver } from "../support/node-app";
import { registerWebhookFunction } from "./gcf";

const running: RunningApp[] = [];
afterEach(() => Promise.all(running.splice(0).map((app) => app.close())));

async function start(name: string) {
  const { receiver, seen } = recordingReceiver("whsec_conformance");
  registerWebhookFunction(name, receiver);
  const app = await listenOnLoopback(getTestServer(name));
  running.push(app);
  return { app, seen };
}

function code(body: string): string | undefined {
  return (JSON.parse(body) as { error?: { code: string } }).error?.code;
}

describe("Google Cloud Functions recipe (Functions Framework, req.rawBody)", () => {
  it("verifies a delivery over the exact bytes, invalid UTF-8 included", async () => {
    const { app, seen } = await start("bytes");
    const body = Uint8Array.from(
      Buffer.concat([
        Buffer.from('{"id":"evt_gcf","type":"message.sent","note":"'),
        Buffer.from([0xff]),
        Buffer.from('"}'),
      ]),
    );
    const response = await app.send(delivery(body));
    expect(response.status).toBe(200);
    expect(Buffer.from(seen[0]?.verifiedBody ?? []).equals(Buffer.from(body))).toBe(true);
  });

  it("verifies a gzip-encoded delivery (the framework inflates it into req.rawBody)", async () => {
    const { app, seen } = await start("gzip");
    const body = eventBody();
    const sent = delivery(body, { sendBody: new Uint8Array(gzipSync(body)), headers: { "content-encoding": "gzip" } });
    expect((await app.send(sent)).status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it("rejects a tampered body, and a GET with 405", async () => {
    const { app, seen } = await start("tampered");
    const tampered = await app.send(delivery(eventBody(), { sendBody: eventBody() }));
    expect([tampered.status, code(tampered.body)]).toEqual([400, "signature_mismatch"]);
    const get = await app.send({ method: "GET", headers: {} });
    expect([get.status, get.headers.allow]).toEqual([405, "POST"]);
    expect(seen).toHaveLength(0);
  });

  it("refuses a body over maxBodyBytes with 413", async () => {
    const { receiver, seen } = recordingReceiver("whsec_conformance", { maxBodyBytes: 64 });
    registerWebhookFunction("limited", receiver);
    const app = await listenOnLoopback(getTestServer("limited"));
    running.push(app);
    const response = await app.send(delivery(eventBody()));
    expect([response.status, code(response.body)]).toEqual([413, "payload_too_large"]);
    expect(seen).toHaveLength(0);
  });
});
