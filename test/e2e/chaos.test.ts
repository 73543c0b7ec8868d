import { type Emulator, FAILING_RECIPIENTS, startEmulator } from "@tidings/cli";
import { afterEach, describe, expect, it } from "vitest";
import { EXAMPLES, messageRecord, type RunningExample } from "./example-servers";

const SECRET = "whsec_e2e_chaos";
// A fixed seed: the same duplicates, swaps, delays and clock errors on every run (listed in the emulator's log).
const CHAOS = { duplicates: 0.5, reorder: 0.5, delayMs: [0, 20] as const, clockSkewS: 120, seed: 2024 };
const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of running.splice(0).reverse()) await thing.close();
});

const MESSAGES = [
  { channel: "sms", to: "+15551234567", final: "delivered" },
  { channel: "email", to: "ada@example.com", final: "delivered" },
  { channel: "push", to: "device_token_1", final: "delivered" },
  { channel: "sms", to: FAILING_RECIPIENTS.sms, final: "failed" },
  { channel: "email", to: FAILING_RECIPIENTS.email, final: "failed" },
  { channel: "push", to: "device_token_2", final: "delivered" },
] as const;

async function create(emulator: Emulator, fields: { channel: string; to: string }): Promise<string> {
  const response = await fetch(`${emulator.url}/v3/messages`, {
    method: "POST",
    headers: { authorization: "Bearer sk_test_chaos" },
    body: new URLSearchParams({ ...fields, body: "chaos" }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

describe.each(Object.keys(EXAMPLES))("the %s example under chaos", (name) => {
  it("ends every message in its right final status, each event handled once", async () => {
    const example = await (EXAMPLES[name] as (secret: string) => Promise<RunningExample>)(SECRET);
    running.push(example);
    const log: string[] = [];
    const emulator = await startEmulator({
      webhookUrl: `${example.url}/webhooks`,
      secret: SECRET,
      retry: { baseDelayMs: 10 },
      chaos: CHAOS,
      log: (line) => log.push(line),
    });
    running.push(emulator);
    const ids: string[] = [];
    for (const message of MESSAGES) ids.push(await create(emulator, message));
    await emulator.idle();
    // The chaos really happened: duplicates sent, events swapped, clocks off.
    const chaosLines = log.filter((line) => line.includes(" chaos: "));
    expect(chaosLines).toHaveLength(MESSAGES.length);
    expect(chaosLines.some((line) => line.includes("twice: "))).toBe(true);
    expect(chaosLines.some((line) => line.includes("order "))).toBe(true);
    expect(log.some((line) => line.includes("sent again (chaos: duplicate): 200"))).toBe(true);
    for (const [i, message] of MESSAGES.entries()) {
      const record = await messageRecord(example.url, ids[i] as string);
      expect(record?.status, chaosLines[i]).toBe(message.final);
      expect([...(record?.events ?? [])].sort()).toEqual(
        ["message.queued", "message.sent", `message.${message.final}`].sort(),
      );
    }
  });
});
