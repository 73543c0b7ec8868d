import { createServer, type IncomingMessage } from "node:http";
import { gzipSync } from "node:zlib";
import { HttpRequest } from "@azure/functions";
import { afterEach, describe, expect, it } from "vitest";
import { delivery, eventBody } from "../conformance/deliveries";
import { listenOnLoopback } from "../conformance/http-client";
import type { RunningApp } from "../conformance/target";
import { recordingReceiver } from "../support/node-app";
import { azureWebhookHandler } from "./azure";

// The Functions host (Core Tools) is a .NET program downloaded outside npm, so it cannot run here. In its place, a
// node:http server hands each request to the handler as the host does: an @azure/functions HttpRequest built from
// the request, and the returned HttpResponseInit written back.
const running: RunningApp[] = [];
afterEach(() => Promise.all(running.splice(0).map((app) => app.close())));

async function azureRequest(req: IncomingMessage): Promise<HttpRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers[name] = value;
  const body = chunks.length ? { bytes: Buffer.concat(chunks) } : undefined;
  return new HttpRequest({
    method: req.method ?? "GET",
    url: `http://127.0.0.1${req.url}`,
    headers,
    ...(body && { body }),
  });
}

async function start() {
  const { receiver, seen } = recordingReceiver("whsec_conformance");
  const handler = azureWebhookHandler(receiver);
  const app = await listenOnLoopback(
    createServer(async (req, res) => {
      const result = await handler(await azureRequest(req));
      res.writeHead(result.status ?? 200, result.headers as Record<string, string>).end(result.body as string);
    }),
  );
  running.push(app);
  return { app, seen };
}

function code(body: string): string | undefined {
  return (JSON.parse(body) as { error?: { code: string } }).error?.code;
}

describe("Azure Functions v4 recipe (HttpRequest into createFetchHandler)", () => {
  it("verifies a delivery over the exact bytes, invalid UTF-8 included", async () => {
    const { app, seen } = await start();
    const body = Uint8Array.from(
      Buffer.concat([
        Buffer.from('{"id":"evt_az","type":"message.sent","note":"'),
        Buffer.from([0xfe]),
        Buffer.from('"}'),
      ]),
    );
    expect((await app.send(delivery(body))).status).toBe(200);
    expect(Buffer.from(seen[0]?.verifiedBody ?? []).equals(Buffer.from(body))).toBe(true);
  });

  it("undoes a gzip Content-Encoding", async () => {
    const { app, seen } = await start();
    const body = eventBody();
    const sent = delivery(body, { sendBody: new Uint8Array(gzipSync(body)), headers: { "content-encoding": "gzip" } });
    expect((await app.send(sent)).status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it("rejects a tampered body, and a GET with 405", async () => {
    const { app, seen } = await start();
    const tampered = await app.send(delivery(eventBody(), { sendBody: eventBody() }));
    expect([tampered.status, code(tampered.body)]).toEqual([400, "signature_mismatch"]);
    const get = await app.send({ method: "GET", headers: {} });
    expect([get.status, get.headers.allow]).toEqual([405, "POST"]);
    expect(seen).toHaveLength(0);
  });
});
