import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startEmulator } from "@tidings/cli";
import { createReceiver, MESSAGE_EVENT_TYPES, messageStatusOrder } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import express from "express";
import { expect, it } from "vitest";

const SECRET = "whsec_emulated_order";
const MESSAGES = 30;
const FAILING_RECIPIENT = "+15005550001"; // the emulator fails every message to it

it("the emulator's --reorder and --duplicates against a receiver with order: every message ends at its final status", async () => {
  const statuses = new Map<string, string>();
  const seen = new Map<string, number[]>();
  let stale = 0;
  // The handler writes the status it gets, unconditionally: order alone keeps an older status from winning.
  const receiver = createReceiver({ secret: SECRET, order: messageStatusOrder, logger: { error() {} } })
    .on(MESSAGE_EVENT_TYPES, (event) => {
      statuses.set(event.data.id, event.data.status);
      seen.set(event.data.id, [...(seen.get(event.data.id) ?? []), messageStatusOrder.position(event) ?? 0]);
    })
    .onOutcome((outcome) => {
      if (outcome.code === "stale") stale++;
    });
  const app = express().post("/webhooks", webhookMiddleware(receiver));
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  const emulator = await startEmulator({
    webhookUrl,
    secret: SECRET,
    log: false,
    chaos: { reorder: 1, duplicates: 0.5, delayMs: [0, 20] },
    retry: { attempts: 20, baseDelayMs: 20, factor: 1.5 },
  });
  try {
    const expected = new Map<string, string>();
    for (let i = 0; i < MESSAGES; i++) {
      const to = i % 5 === 0 ? FAILING_RECIPIENT : `+1555000${String(i).padStart(4, "0")}`;
      const response = await fetch(`${emulator.url}/v3/messages`, {
        method: "POST",
        headers: { authorization: "Bearer sk_test_order", "idempotency-key": `order-${i}` },
        body: new URLSearchParams({ channel: "sms", to, body: `message ${i}` }),
      });
      const { id } = (await response.json()) as { id: string };
      expected.set(id, to === FAILING_RECIPIENT ? "failed" : "delivered");
    }
    await emulator.idle();
    expect(Object.fromEntries(statuses)).toEqual(Object.fromEntries(expected));
    for (const [message, positions] of seen) {
      expect(
        positions.every((position, i) => i === 0 || position > (positions[i - 1] as number)),
        message,
      ).toBe(true);
    }
    expect(stale).toBeGreaterThan(0); // every message had a neighbouring pair swapped
  } finally {
    await emulator.close();
    server.close();
  }
}, 120_000);
