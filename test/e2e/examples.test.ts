import { type Emulator, startEmulator } from "@tidings/cli";
import { afterEach, describe, expect, it } from "vitest";
import { until } from "../support/wait";
import { tidings } from "./cli";
import { EXAMPLES, failingFirst, messageRecord, type RunningExample } from "./example-servers";

const SECRET = "whsec_e2e";
const API_KEY = "sk_test_e2e";
const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(
    running
      .splice(0)
      .reverse()
      .map((thing) => thing.close()),
  );
});

async function start<T extends { close(): Promise<void> }>(thing: Promise<T>): Promise<T> {
  const started = await thing;
  running.push(started);
  return started;
}

function emulatorFor(webhookUrl: string): Promise<Emulator> {
  return start(startEmulator({ webhookUrl, secret: SECRET, log: false, retry: { baseDelayMs: 20 } }));
}

async function sendMessage(emulator: Emulator, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${emulator.url}/v3/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${API_KEY}`, ...headers },
    body: new URLSearchParams(fields),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as { id: string } };
}

function finalRecord(example: RunningExample, id: string) {
  return until(async () => {
    const record = await messageRecord(example.url, id);
    return (record?.status === "delivered" || record?.status === "failed") && record;
  }, `message ${id} delivered or failed`);
}

describe.each(Object.keys(EXAMPLES))("the %s example, driven over loopback HTTP", (name) => {
  const startExample = () => start((EXAMPLES[name] as (secret: string) => Promise<RunningExample>)(SECRET));

  it("records a delivery sent by `tidings send` and serves it at GET /messages/:id", async () => {
    const example = await startExample();
    const messageId = `msg_send_${name}`;
    const sent = await tidings([
      "send",
      "--url",
      `${example.url}/webhooks`,
      "--secret",
      SECRET,
      "--type",
      "message.delivered",
      "--data",
      JSON.stringify({ id: messageId, channel: "email" }),
    ]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(await messageRecord(example.url, messageId)).toMatchObject({ status: "delivered", channel: "email" });
    expect(await messageRecord(example.url, "msg_never_heard_of")).toBeUndefined();
  });

  it("refuses `tidings send` signed with another secret, and the CLI exits non-zero", async () => {
    const example = await startExample();
    const sent = await tidings([
      "send",
      "--url",
      `${example.url}/webhooks`,
      "--secret",
      "whsec_wrong",
      "--type",
      "message.sent",
    ]);
    expect(sent.code).not.toBe(0);
    expect(sent.stdout + sent.stderr).toContain("400");
  });

  it("follows messages sent through the emulator to their final status, failing recipient included", async () => {
    const example = await startExample();
    const emulator = await emulatorFor(`${example.url}/webhooks`);
    const ok = await sendMessage(emulator, { channel: "sms", to: "+15551234567", body: "code 1234" });
    const failing = await sendMessage(emulator, { channel: "sms", to: "+15005550001", body: "never arrives" });
    expect([ok.status, failing.status]).toEqual([202, 202]);
    expect(await finalRecord(example, ok.body.id)).toMatchObject({
      status: "delivered",
      events: ["message.queued", "message.sent", "message.delivered"],
    });
    expect(await finalRecord(example, failing.body.id)).toMatchObject({
      status: "failed",
      events: ["message.queued", "message.sent", "message.failed"],
    });
  });
});

describe("the emulator in front of the Express example", () => {
  it("enforces test keys and idempotency keys", async () => {
    const example = await start((EXAMPLES.express as (secret: string) => Promise<RunningExample>)(SECRET));
    const emulator = await emulatorFor(`${example.url}/webhooks`);
    const fields = { channel: "push", to: "device_1", body: "hello" };
    const live = await fetch(`${emulator.url}/v3/messages`, {
      method: "POST",
      headers: { authorization: "Bearer sk_live_123" },
      body: new URLSearchParams(fields),
    });
    expect(live.status).toBe(401);
    expect(live.headers.get("service-request-id")).toBeTruthy();
    const first = await sendMessage(emulator, fields, { "idempotency-key": "order-42" });
    const again = await sendMessage(emulator, fields, { "idempotency-key": "order-42" });
    const conflicting = await sendMessage(emulator, { ...fields, body: "changed" }, { "idempotency-key": "order-42" });
    expect([first.status, again.status, conflicting.status]).toEqual([202, 202, 409]);
    expect(again.body.id).toBe(first.body.id);
    await emulator.idle();
    expect((await messageRecord(example.url, first.body.id))?.events).toEqual([
      "message.queued",
      "message.sent",
      "message.delivered",
    ]);
  });

  it("retries a delivery the receiver answered with 500, and the receiver ends with every event once", async () => {
    const example = await start((EXAMPLES.express as (secret: string) => Promise<RunningExample>)(SECRET));
    const flaky = await start(failingFirst(example.url, 1));
    const emulator = await emulatorFor(`${flaky.url}/webhooks`);
    const message = await sendMessage(emulator, { channel: "email", to: "ada@example.com", body: "hi" });
    expect(await finalRecord(example, message.body.id)).toMatchObject({
      status: "delivered",
      events: ["message.queued", "message.sent", "message.delivered"],
    });
    expect(flaky.failed).toBe(1);
  });
});
