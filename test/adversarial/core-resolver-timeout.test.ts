import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createReceiver, type ReceiveErrorInfo, type ResolvedEndpoint, SIGNATURE_HEADER, sign } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import express from "express";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { until } from "../support/wait";

const SECRET = "whsec_stalled";
const RESOLVER_TIMEOUT_MS = 250;
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
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  // The resolver's database has stalled: every lookup hangs until the test lets it settle.
  const receiver = createReceiver({
    secret: () => new Promise<ResolvedEndpoint>((resolve, reject) => pending.push({ resolve, reject })),
    resolverTimeoutMs: RESOLVER_TIMEOUT_MS,
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
  vi.useRealTimers();
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

/**
 * The answers to requests whose lookups are all pending: the lookups' time limit is reached on vitest's fake clock,
 * moved on once every lookup has started (the requests themselves travel a real socket).
 */
async function answersOnceTimedOut<T>(requests: Promise<T>[], lookups: number): Promise<T[]> {
  const answers = Promise.all(requests);
  await until(() => pending.length === lookups, `${lookups} lookups pending`);
  await vi.advanceTimersByTimeAsync(RESOLVER_TIMEOUT_MS);
  return answers;
}

it("answers forged 1 MB requests 503 secret_unavailable with Retry-After when the resolver never settles", async () => {
  const forged = `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`;
  const answers = await answersOnceTimedOut(
    Array.from({ length: FORGED }, (_, n) => post(`acct_${n}`, BODY, forged)),
    FORGED,
  );
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
  const [answer] = await answersOnceTimedOut([post("acct_late", signed, sign(signed, SECRET))], late + 1);
  expect(answer?.status).toBe(503);
  reported.length = 0;
  for (const [n, lookup] of pending.splice(0).entries()) {
    if (n % 2 === 0) lookup.resolve({ secret: SECRET, endpoint: "acct" });
    else lookup.reject(new Error("database finally failed"));
  }
  const rejected = Math.floor((late + 1) / 2);
  await until(() => reported.length === rejected, "the late rejections reported");
  expect(reported.every(({ error }) => String(error).includes("database finally failed"))).toBe(true);
  expect(handled).toBe(0);
});
