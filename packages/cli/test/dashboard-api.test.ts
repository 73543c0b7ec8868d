import { afterEach, describe, expect, it } from "vitest";
import { until } from "../../../test/support/wait";
import { type Emulator, type MessageRecord, startEmulator, TEST_KEY_PREFIX } from "../src/index";
import { SECRET, startReceiver, type TestReceiver } from "./helpers";

let emulator: Emulator | undefined;
let receiver: TestReceiver | undefined;
afterEach(async () => {
  await emulator?.close();
  await receiver?.close();
});

async function setup() {
  receiver = await startReceiver();
  emulator = await startEmulator({ webhookUrl: receiver.url, secret: SECRET, log: false, dashboard: true });
  return { dashboard: emulator.dashboardUrl as string, emulator, receiver };
}

const send = (url: string, method: string, body: unknown, contentType = "application/json") =>
  fetch(url, { method, headers: { "content-type": contentType }, body: JSON.stringify(body) });

const state = async (dashboard: string) =>
  (await (await fetch(`${dashboard}/api/state`)).json()) as { paused: boolean; messages: MessageRecord[] };

describe("the dashboard's API", () => {
  it("is served only when asked for, on its own address", async () => {
    const { dashboard } = await setup();
    expect(dashboard).not.toBe(emulator?.url);
    expect((await fetch(dashboard)).headers.get("content-type")).toMatch(/^text\/html/);
    const other = await startEmulator({ webhookUrl: receiver?.url as string, secret: SECRET, log: false });
    expect(other.dashboardUrl).toBeUndefined();
    await other.close();
  });

  it("refuses writes that are not JSON, so another site's form cannot pause the emulator", async () => {
    const { dashboard } = await setup();
    const response = await send(`${dashboard}/api/pause`, "POST", {}, "application/x-www-form-urlencoded");
    expect(response.status).toBe(415);
    expect((await state(dashboard)).paused).toBe(false);
  });

  it("sends a test event of a type, records every attempt, and resends one on request", async () => {
    const { dashboard, emulator, receiver } = await setup();
    const created = await send(`${dashboard}/api/test-events`, "POST", { type: "message.failed" });
    expect(created.status).toBe(202);
    const { messageId } = (await created.json()) as { messageId: string };
    await emulator.idle();
    const [message] = (await state(dashboard)).messages;
    expect(message).toMatchObject({ id: messageId, origin: "test", events: [{ type: "message.failed" }] });
    const event = message?.events[0];
    expect(event?.attempts).toEqual([
      expect.objectContaining({ status: 200, responseStart: expect.stringContaining('"received":true') }),
    ]);
    expect(event?.attempts[0]?.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(receiver.events.map((received) => received.data)).toEqual([
      expect.objectContaining({ id: messageId, status: "failed", reason: expect.any(Object) }),
    ]);

    const resent = await send(`${dashboard}/api/messages/${messageId}/events/${event?.id}/resend`, "POST", {});
    expect(resent.status).toBe(202);
    await emulator.idle();
    const again = (await state(dashboard)).messages[0]?.events[0]?.attempts;
    expect(again?.[1]).toMatchObject({
      status: 200,
      extra: "resend",
      responseStart: expect.stringContaining("duplicate"),
    });
    expect(receiver.requests).toBe(2);
    expect(receiver.events).toHaveLength(1);

    expect((await send(`${dashboard}/api/messages/${messageId}/events/evt_nope/resend`, "POST", {})).status).toBe(404);
    expect((await send(`${dashboard}/api/test-events`, "POST", { type: "message.bounced" })).status).toBe(400);
  });

  it("fails every attempt while paused without reaching the receiver, and delivers after resume", async () => {
    const { dashboard, emulator, receiver } = await setup();
    expect(await (await send(`${dashboard}/api/pause`, "POST", {})).json()).toMatchObject({ paused: true });
    const response = await fetch(`${emulator.url}/v3/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_KEY_PREFIX}pause` },
      body: new URLSearchParams({ channel: "sms", to: "+15551234567", body: "hi" }),
    });
    expect(response.status).toBe(202);
    await until(
      async () => ((await state(dashboard)).messages[0]?.events[0]?.attempts.length ?? 0) > 1,
      "a second attempt while paused",
    );
    expect(receiver.requests).toBe(0);
    expect((await state(dashboard)).messages[0]?.events[0]?.attempts[0]).toMatchObject({ error: "paused" });
    await send(`${dashboard}/api/resume`, "POST", {});
    await emulator.idle();
    const events = (await state(dashboard)).messages[0]?.events ?? [];
    expect(events.map((event) => event.state)).toEqual(["delivered", "delivered", "delivered"]);
    expect(receiver.events).toHaveLength(3);
  });

  it("changes the chaos for new messages, and refuses settings out of range", async () => {
    const { dashboard, emulator } = await setup();
    const changed = await send(`${dashboard}/api/chaos`, "PUT", { duplicates: 1, delayMs: [0, 5] });
    expect(changed.status).toBe(200);
    expect(emulator.chaos).toMatchObject({ duplicates: 1, delayMs: [0, 5], reorder: 0 });
    const refused = await send(`${dashboard}/api/chaos`, "PUT", { reorder: 2 });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: { message: expect.stringContaining("chaos.reorder") } });
    expect(emulator.chaos.reorder).toBe(0);
  });
});
