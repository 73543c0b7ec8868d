import type { Server } from "node:http";
import {
  createReceiver,
  type DeliveryStore,
  MemoryStore,
  type ReceiveErrorInfo,
  SIGNATURE_HEADER,
  sign,
} from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import express from "express";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { listen, postBytes } from "../support/node-app";
import { until } from "../support/wait";

const SECRET = "whsec_settle";
const LEASE_MS = 1200;
const HANDLER_TIMEOUT_MS = 200;

// The done mark's retries, the handlers' time limit and MemoryStore's leases run on vitest's fake clock; the requests
// travel a real socket, so the clock is moved on only once the handlers have run (see `post`).
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(async () => {
  await vi.runAllTimersAsync();
  vi.useRealTimers();
});

type Fault = "rejects" | "hangs";

/** A MemoryStore whose done mark fails: every `complete` rejects, or never settles. Claims and releases work. */
function storeFailingAtComplete(fault: Fault): DeliveryStore {
  const memory = new MemoryStore();
  return {
    claim: (key, leaseMs) => Promise.resolve(memory.claim(key, leaseMs)),
    release: (key, token) => Promise.resolve(memory.release(key, token)),
    complete: () => (fault === "rejects" ? Promise.reject(new Error("READONLY failing over")) : new Promise(() => {})),
  };
}

async function app(fault: Fault) {
  const runs: string[] = [];
  const reported: ReceiveErrorInfo[] = [];
  const receiver = createReceiver({
    secret: SECRET,
    store: storeFailingAtComplete(fault),
    leaseMs: LEASE_MS,
    handlerTimeoutMs: HANDLER_TIMEOUT_MS,
    logger: { error() {}, warn() {} },
  })
    .onAny(async (event) => {
      await new Promise((resolve) => setImmediate(resolve));
      runs.push((event as { id: string }).id);
    })
    .onError((_error, info) => {
      reported.push(info);
    });
  const server: Server = await listen(express().post("/webhooks", webhookMiddleware(receiver)));
  return { server, runs, reported };
}

function delivery(id: string) {
  const body = Buffer.from(JSON.stringify({ id, type: "message.sent", data: { id: "msg_1", status: "sent" } }));
  return { body, headers: { "content-type": "application/json", [SIGNATURE_HEADER]: sign(body, SECRET) } };
}

/** Posts `id` and, once its handlers have run, moves the clock on a lease: past every retry of the done mark. */
async function post(server: Server, runs: readonly string[], id: string) {
  const before = runs.length;
  const answering = Promise.resolve(postBytes(server, "/webhooks", delivery(id)));
  await until(() => runs.length > before, `the handlers of ${id}`);
  await vi.advanceTimersByTimeAsync(LEASE_MS);
  return answering;
}

for (const fault of ["rejects", "hangs"] as const) {
  it(`answers 200 once the handlers succeeded, when the store's complete ${fault}, and tells onError`, async () => {
    const { server, runs, reported } = await app(fault);
    // The done-mark retries last half the lease, longer than handlerTimeoutMs: only the handlers are timed.
    const response = await post(server, runs, "evt_settle");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ received: true });
    expect(runs).toEqual(["evt_settle"]);
    expect(reported.map(({ code, status }) => ({ code, status }))).toEqual([
      { code: "store_unavailable", status: 200 },
    ]);
  });
}

it("a sender that retries only what was not answered 2xx runs the handlers once", async () => {
  const { server, runs } = await app("rejects");
  const first = await post(server, runs, "evt_once");
  if (first.status >= 300) {
    // What a sender does after a 5xx: retry once the claim's lease has run out.
    await vi.advanceTimersByTimeAsync(LEASE_MS);
    await post(server, runs, "evt_once");
  }
  expect(first.status).toBe(200);
  expect(runs).toEqual(["evt_once"]);
});
