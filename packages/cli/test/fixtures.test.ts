import { afterEach, describe, expect, it } from "vitest";
import { FAILING_RECIPIENTS, FIXTURES, startEmulator, TEST_KEY_PREFIX } from "../src/index";
import { runCli, SECRET, startReceiver, type TestReceiver } from "./helpers";

let receiver: TestReceiver | undefined;
afterEach(() => receiver?.close());

describe("tidings fixtures", () => {
  it("prints every type's fixture as JSON, or one type's", async () => {
    const all = await runCli(["fixtures"]);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual(FIXTURES);
    expect(Object.keys(FIXTURES)).toEqual(["message.queued", "message.sent", "message.delivered", "message.failed"]);
    const one = await runCli(["fixtures", "message.failed"]);
    expect(JSON.parse(one.stdout)).toEqual(FIXTURES["message.failed"]);
    const unknown = await runCli(["fixtures", "message.bounced"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: .*message\.bounced/);
  });

  it("are what the emulator delivers: the failing recipient's message.failed is the fixture with fresh ids", async () => {
    receiver = await startReceiver();
    const emulator = await startEmulator({ webhookUrl: receiver.url, secret: SECRET, log: false });
    const response = await fetch(`${emulator.url}/v3/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_KEY_PREFIX}fixtures` },
      body: new URLSearchParams({ channel: "email", to: FAILING_RECIPIENTS.email, body: "hi" }),
    });
    const { id } = (await response.json()) as { id: string };
    await emulator.idle();
    await emulator.close();
    const failed = receiver.events.find((event) => event.type === "message.failed");
    const { id: _eventId, created: _created, data, ...rest } = FIXTURES["message.failed"];
    expect(failed).toEqual({
      ...rest,
      id: expect.stringMatching(/^evt_[0-9a-f]{24}$/),
      created: expect.any(Number),
      data: { ...data, id, channel: "email" },
    });
  });
});
