import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, FAILING_RECIPIENTS, startEmulator, TEST_KEY_PREFIX } from "../src/index";
import { SECRET, startReceiver, type TestReceiver } from "./helpers";

let emulator: Emulator;
let receiver: TestReceiver;
const log: string[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  emulator = await startEmulator({ webhookUrl: receiver.url, secret: SECRET, log: (line) => log.push(line) });
});
afterAll(async () => {
  await emulator.close();
  await receiver.close();
});

const KEY = `${TEST_KEY_PREFIX}api_tests`;
const valid = { channel: "sms", to: "+15551234567", body: "Hello" };

async function create(
  fields: Record<string, string> | string,
  headers: Record<string, string> = { authorization: `Bearer ${KEY}` },
) {
  const response = await fetch(`${emulator.url}/v3/messages`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: typeof fields === "string" ? fields : new URLSearchParams(fields).toString(),
  });
  return { response, text: await response.text() };
}

const json = (text: string) => JSON.parse(text) as { id?: string; status?: string; error?: Record<string, string> };
const requestId = /^req_[0-9a-f]{24}$/;

describe("emulator API: POST /v3/messages", () => {
  it("accepts a test key: 202 {id, status: queued} with Service-Request-Id", async () => {
    const { response, text } = await create(valid);
    expect(response.status).toBe(202);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("service-request-id")).toMatch(requestId);
    expect(response.headers.get("idempotent-replayed")).toBeNull();
    const body = json(text);
    expect(Object.keys(body)).toEqual(["id", "status"]);
    expect(body.id).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(body.status).toBe("queued");
  });

  it("gives every call its own Service-Request-Id", async () => {
    const ids = await Promise.all(
      [1, 2, 3].map(async () => (await create(valid)).response.headers.get("service-request-id")),
    );
    expect(new Set(ids).size).toBe(3);
  });

  describe("authentication", () => {
    it.each([
      ["no Authorization header", {}, "missing_api_key"],
      ["a live-looking key", { authorization: "Bearer sk_live_4eC39HqLyjWDarjtT1zdp7dc" }, "invalid_api_key"],
      ["the bare prefix", { authorization: `Bearer ${TEST_KEY_PREFIX}` }, "invalid_api_key"],
      ["a test key of another shape", { authorization: "Bearer pk_test_abc" }, "invalid_api_key"],
      ["Basic instead of Bearer", { authorization: `Basic ${btoa(`${KEY}:`)}` }, "invalid_authorization"],
    ])("%s: 401 %s, JSON error, Service-Request-Id", async (_name, headers, code) => {
      const { response, text } = await create(valid, headers);
      expect(response.status).toBe(401);
      expect(response.headers.get("service-request-id")).toMatch(requestId);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(json(text).error).toEqual({ code, message: expect.any(String) });
      expect(text).not.toContain("sk_live_4eC39");
    });

    it("accepts the scheme case-insensitively", async () => {
      expect((await create(valid, { authorization: `bearer ${KEY}` })).response.status).toBe(202);
    });
  });

  describe("validation: 400 {error: {code, message, field}}", () => {
    it.each([
      ["bad channel", { ...valid, channel: "fax" }, "invalid_field", "channel"],
      ["missing channel", { to: valid.to, body: "x" }, "missing_field", "channel"],
      ["sms number without +", { ...valid, to: "15551234567" }, "invalid_field", "to"],
      ["sms number with letters", { ...valid, to: "+1555CALLNOW" }, "invalid_field", "to"],
      ["sms number too long", { ...valid, to: "+1234567890123456" }, "invalid_field", "to"],
      ["missing to", { channel: "sms", body: "x" }, "missing_field", "to"],
      ["empty to", { ...valid, to: "" }, "missing_field", "to"],
      ["email without @", { channel: "email", to: "ada.example.com", body: "x" }, "invalid_field", "to"],
      ["push token with a space", { channel: "push", to: "abc def", body: "x" }, "invalid_field", "to"],
      ["empty body", { ...valid, body: "" }, "invalid_field", "body"],
      ["blank body", { ...valid, body: "  \n" }, "invalid_field", "body"],
      ["missing body", { channel: "sms", to: valid.to }, "missing_field", "body"],
    ])("%s", async (_name, fields, code, field) => {
      const { response, text } = await create(fields);
      expect(response.status).toBe(400);
      expect(response.headers.get("service-request-id")).toMatch(requestId);
      expect(json(text)).toEqual({ error: { code, field, message: expect.any(String) } });
    });

    it("rejects a field given twice", async () => {
      const { response, text } = await create("channel=sms&to=%2B15551234567&to=%2B15557654321&body=x");
      expect(response.status).toBe(400);
      expect(json(text).error).toMatchObject({ code: "invalid_field", field: "to" });
    });

    it('explains an unencoded "+" (it arrives as a space)', async () => {
      const { text } = await create("channel=sms&to=+15551234567&body=x");
      expect(json(text).error?.message).toContain("%2B");
    });

    it.each([
      ["email", "ada@example.com"],
      ["push", "f3b8c0e1a2d4:APA91bH-token_value"],
      ["sms", FAILING_RECIPIENTS.sms],
    ])("accepts a %s recipient %s", async (channel, to) => {
      expect((await create({ channel, to, body: "x" })).response.status).toBe(202);
    });

    it("answers 415 to a JSON body: the API takes form fields", async () => {
      const response = await fetch(`${emulator.url}/v3/messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify(valid),
      });
      expect(response.status).toBe(415);
      expect(response.headers.get("service-request-id")).toMatch(requestId);
      expect(json(await response.text()).error?.code).toBe("unsupported_media_type");
    });
    it("answers 413 to a body over 1 MiB", async () => {
      const { response, text } = await create({ ...valid, body: "x".repeat(1024 * 1024) });
      expect(response.status).toBe(413);
      expect(response.headers.get("service-request-id")).toMatch(requestId);
      expect(json(text).error?.code).toBe("payload_too_large");
    });
  });

  describe("idempotency", () => {
    it("replays the first response for the same key and body: same status, same bytes", async () => {
      const headers = { authorization: `Bearer ${KEY}`, "idempotency-key": "order-1001" };
      const first = await create(valid, headers);
      const second = await create(valid, headers);
      expect(first.response.status).toBe(202);
      expect(second.response.status).toBe(202);
      expect(second.text).toBe(first.text);
      expect(second.response.headers.get("idempotent-replayed")).toBe("true");
      expect(second.response.headers.get("service-request-id")).toMatch(requestId);
      expect(second.response.headers.get("service-request-id")).not.toBe(
        first.response.headers.get("service-request-id"),
      );
    });

    it("treats the same fields in another order as the same body", async () => {
      const headers = { authorization: `Bearer ${KEY}`, "idempotency-key": "order-1002" };
      const first = await create("channel=sms&to=%2B15551234567&body=Hi", headers);
      const second = await create("body=Hi&channel=sms&to=%2B15551234567", headers);
      expect(second.text).toBe(first.text);
    });

    it("answers 409 to the same key with a different body, and keeps the first response", async () => {
      const headers = { authorization: `Bearer ${KEY}`, "idempotency-key": "order-1003" };
      const first = await create(valid, headers);
      const conflict = await create({ ...valid, body: "Hello again" }, headers);
      expect(conflict.response.status).toBe(409);
      expect(conflict.response.headers.get("service-request-id")).toMatch(requestId);
      expect(json(conflict.text).error?.code).toBe("idempotency_key_reused");
      expect((await create(valid, headers)).text).toBe(first.text);
    });

    it("creates a new message each time without a key", async () => {
      const ids = new Set<string | undefined>();
      for (let i = 0; i < 3; i++) ids.add(json((await create(valid)).text).id);
      expect(ids.size).toBe(3);
    });

    it("scopes keys to the API key", async () => {
      const a = await create(valid, { authorization: `Bearer ${KEY}`, "idempotency-key": "shared" });
      const b = await create(valid, { authorization: `Bearer ${TEST_KEY_PREFIX}other`, "idempotency-key": "shared" });
      expect(json(b.text).id).not.toBe(json(a.text).id);
    });

    it("does not store a refused request: the fixed request under the same key is accepted", async () => {
      const headers = { authorization: `Bearer ${KEY}`, "idempotency-key": "order-1004" };
      expect((await create({ ...valid, to: "555" }, headers)).response.status).toBe(400);
      expect((await create(valid, headers)).response.status).toBe(202);
    });

    it("starts the deliveries once: a replay sends no events", async () => {
      await emulator.idle();
      const before = receiver.events.length;
      const headers = { authorization: `Bearer ${KEY}`, "idempotency-key": "order-1005" };
      const { id } = json((await create(valid, headers)).text);
      await create(valid, headers);
      await emulator.idle();
      expect(receiver.events.length - before).toBe(3);
      expect(receiver.events.slice(before).every((event) => event.data.id === id)).toBe(true);
    });

    it("remembers at most idempotencyKeys keys, forgetting the oldest first; refuses a count below 1", async () => {
      const small = await startEmulator({ webhookUrl: receiver.url, secret: SECRET, log: false, idempotencyKeys: 2 });
      try {
        const send = async (key: string) => {
          const response = await fetch(`${small.url}/v3/messages`, {
            method: "POST",
            headers: { authorization: `Bearer ${KEY}`, "idempotency-key": key },
            body: new URLSearchParams(valid),
          });
          return {
            replayed: response.headers.get("idempotent-replayed") === "true",
            id: json(await response.text()).id,
          };
        };
        const first = await send("k1");
        await send("k2");
        expect(await send("k2")).toMatchObject({ replayed: true });
        await send("k3");
        // k1 was the oldest of three: forgotten, so the same write under it is a new message.
        const again = await send("k1");
        expect(again.replayed).toBe(false);
        expect(again.id).not.toBe(first.id);
        expect(await send("k3")).toMatchObject({ replayed: true });
      } finally {
        await small.close();
      }
      for (const idempotencyKeys of [0, 1.5, -1]) {
        await expect(startEmulator({ webhookUrl: receiver.url, secret: SECRET, idempotencyKeys })).rejects.toThrow(
          /idempotencyKeys must be a whole number ≥ 1/,
        );
      }
    });

    it("answers 400 to an empty or overlong key", async () => {
      for (const key of ["", "x".repeat(256), "has space"]) {
        const { response, text } = await create(valid, { authorization: `Bearer ${KEY}`, "idempotency-key": key });
        expect(response.status).toBe(400);
        expect(json(text).error?.code).toBe("invalid_idempotency_key");
      }
    });
  });

  describe("other routes", () => {
    it("answers 404 JSON with Service-Request-Id on an unknown path", async () => {
      const response = await fetch(`${emulator.url}/v2/messages`, { method: "POST" });
      expect(response.status).toBe(404);
      expect(response.headers.get("service-request-id")).toMatch(requestId);
      expect(json(await response.text()).error?.code).toBe("not_found");
    });

    it("answers 405 with Allow: POST to another method on /v3/messages", async () => {
      const response = await fetch(`${emulator.url}/v3/messages`);
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(response.headers.get("service-request-id")).toMatch(requestId);
      expect(json(await response.text()).error?.code).toBe("method_not_allowed");
    });
  });

  it("logs one line per request with status and request id", () => {
    expect(log).toContainEqual(
      expect.stringMatching(/^POST \/v3\/messages 202 msg_[0-9a-f]{24} \(sms to \+15551234567\) req_/),
    );
    expect(log).toContainEqual(expect.stringMatching(/^POST \/v3\/messages 400 invalid_field \(channel\) req_/));
  });
});
