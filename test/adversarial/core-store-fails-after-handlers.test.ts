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
import { expect, it } from "vitest";
import { listen, postBytes } from "../support/node-app";

const SECRET = "whsec_settle";
const LEASE_MS = 1200;
const HANDLER_TIMEOUT_MS = 200;

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

for (const fault of ["rejects", "hangs"] as const) {
  it(`answers 200 once the handlers succeeded, when the store's complete ${fault}, and tells onError`, async () => {
    const { server, runs, reported } = await app(fault);
    // The done-mark retries last half the lease, longer than handlerTimeoutMs: only the handlers are timed.
    const response = await postBytes(server, "/webhooks", delivery("evt_settle"));
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
  const first = await postBytes(server, "/webhooks", delivery("evt_once"));
  if (first.status >= 300) {
    // What a sender does after a 5xx: retry once the claim's lease has run out.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 100));
    await postBytes(server, "/webhooks", delivery("evt_once"));
  }
  expect(first.status).toBe(200);
  expect(runs).toEqual(["evt_once"]);
});
