import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Emulator, FAILING_RECIPIENTS, startEmulator, TEST_KEY_PREFIX } from "@tidings/cli";
import { createReceiver } from "@tidings/core";
import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../support/wait";

// The whole loop: the emulator sends message.failed to a real Receiver, whose handler sends a follow-up message
// back through the emulator's API with the run's idempotency key, then fails, so the delivery is retried and the
// handler runs again. The emulator, which honours Idempotency-Key, creates the follow-up once.

const SECRET = "whsec_idempotency_loop";
const API_KEY = `${TEST_KEY_PREFIX}idempotency_loop`;

let emulator: Emulator;
let close: () => Promise<void>;
const log: string[] = [];
const runs: string[] = [];

beforeAll(async () => {
  const receiver = createReceiver({ secret: SECRET, logger: { error() {} } }).on(
    "message.failed",
    async (event, ctx) => {
      if (event.data.id === undefined) return;
      const key = ctx.idempotencyKey("follow-up");
      runs.push(key);
      const response = await fetch(`${emulator.url}/v3/messages`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${API_KEY}`,
          "content-type": "application/x-www-form-urlencoded",
          "idempotency-key": key,
        },
        body: new URLSearchParams({ channel: "sms", to: "+15550000001", body: `Retrying ${event.data.id}` }),
      });
      if (response.status !== 202) throw new Error(`the emulator answered ${response.status}`);
      // After the send: this run fails, the sender retries, and the handler sends again.
      if (runs.length < 3) throw new Error("failed after the follow-up was sent");
    },
  );
  const server = createServer((request, response) => {
    handleNodeRequest(receiver, request, { consumedFix: "n/a" }).then((result) => writeNodeResponse(response, result));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  emulator = await startEmulator({
    webhookUrl: `http://127.0.0.1:${port}/webhooks`,
    secret: SECRET,
    retry: { attempts: 5, baseDelayMs: 10, factor: 1 },
    log: (line) => log.push(line),
  });
});

afterAll(async () => {
  await emulator?.close();
  await close?.();
});

describe("ctx.idempotencyKey through the emulator", () => {
  it("a handler rerun three times after sending a follow-up creates one follow-up message", async () => {
    const failing = await fetch(`${emulator.url}/v3/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ channel: "sms", to: FAILING_RECIPIENTS.sms, body: "Hello" }),
    });
    expect(failing.status).toBe(202);
    await until(() => runs.length >= 3, "three runs of the handler");
    await emulator.idle();
    // Every run used the same key; the emulator created the failing message and one follow-up, and replayed the rest.
    expect(new Set(runs).size).toBe(1);
    const created = log.filter((line) => /^POST \/v3\/messages 202 msg_/.test(line));
    const replayed = log.filter((line) => /^POST \/v3\/messages 202 replayed/.test(line));
    expect(created).toHaveLength(2);
    expect(replayed).toHaveLength(2);
  });
});
