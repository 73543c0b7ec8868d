import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createReceiver, type ReceiveErrorInfo, type ResolvedEndpoint, SIGNATURE_HEADER, sign } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import express from "express";
import { afterAll, beforeAll, expect, it } from "vitest";

const SECRET = "whsec_stalled";
const FORGED = 40;
const BODY = new Uint8Array(1024 * 1024 - 64).fill(0x20);

interface Pending {
  resolve(found: ResolvedEndpoint): void;
  reject(error: Error): void;
}

const pending: Pending[] = [];
const reported: { error: unknown; info: ReceiveErrorInfo }[] = [];
let handled = 0;
let server: Server;
let url: string;

beforeAll(async () => {
  // The resolver's database has stalled: every lookup hangs until the test lets it settle.
  const receiver = createReceiver({
    secret: () => new Promise<ResolvedEndpoint>((resolve, reject) => pending.push({ resolve, reject })),
    resolverTimeoutMs: 250,
    logger: { error() {}, warn() {} },
  })
    .onAny(() => {
      handled++;
    })
    .onError((error, info) => {
      reported.push({ error, info });
    });
  server = createServer(express().post("/webhooks/:account", webhookMiddleware(receiver))).listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

async function post(path: string, body: Uint8Array<ArrayBuffer>, signature: string) {
  const response = await fetch(`${url}/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signature },
    body,
  });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

it("answers forged 1 MB requests 503 secret_unavailable with Retry-After when the resolver never settles", async () => {
  const forged = `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`;
  const answers = await Promise.all(Array.from({ length: FORGED }, (_, n) => post(`acct_${n}`, BODY, forged)));
  for (const answer of answers) {
    expect(answer).toEqual({
      status: 503,
      retryAfter: "5",
      body: { error: { code: "secret_unavailable", message: expect.any(String) } },
    });
  }
  expect(pending).toHaveLength(FORGED);
  expect(reported.map(({ info }) => info.code)).toEqual(Array(FORGED).fill("secret_unavailable"));
  expect(String(reported[0]?.error)).toContain("resolverTimeoutMs");
});

it("drops what a timed-out lookup settles to later: no handler runs, a late rejection is reported, none unhandled", async () => {
  const signed = new TextEncoder().encode(JSON.stringify({ type: "message.sent", id: "evt_late" }));
  const late = pending.length;
  const answer = post("acct_late", signed, sign(signed, SECRET));
  await until(() => pending.length === late + 1);
  expect((await answer).status).toBe(503);
  reported.length = 0;
  for (const [n, lookup] of pending.splice(0).entries()) {
    if (n % 2 === 0) lookup.resolve({ secret: SECRET, endpoint: "acct" });
    else lookup.reject(new Error("database finally failed"));
  }
  const rejected = Math.floor((late + 1) / 2);
  await until(() => reported.length === rejected);
  expect(reported.every(({ error }) => String(error).includes("database finally failed"))).toBe(true);
  expect(handled).toBe(0);
});
