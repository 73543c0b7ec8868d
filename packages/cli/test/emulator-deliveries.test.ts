import type { AddressInfo } from "node:net";
import { createServer, type Socket } from "node:net";
import { verify } from "@tidings/core";
import { afterEach, describe, expect, it } from "vitest";
import { until } from "../../../test/support/wait";
import { type Emulator, type EmulatorOptions, FAILING_RECIPIENTS, startEmulator, TEST_KEY_PREFIX } from "../src/index";
import { SECRET, startReceiver, type TestReceiver } from "./helpers";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(receiver: TestReceiver | { url: string }, options: Partial<EmulatorOptions> = {}) {
  const log: string[] = [];
  const emulator = await startEmulator({
    webhookUrl: receiver.url,
    secret: SECRET,
    retry: { baseDelayMs: 1 },
    log: (line) => log.push(line),
    ...options,
  });
  cleanups.push(() => emulator.close());
  return { emulator, log };
}

async function receiver(options: Parameters<typeof startReceiver>[0] = {}) {
  const started = await startReceiver(options);
  cleanups.push(() => started.close());
  return started;
}

async function createMessage(emulator: Emulator, channel: string, to: string): Promise<string> {
  const response = await fetch(`${emulator.url}/v3/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_KEY_PREFIX}deliveries` },
    body: new URLSearchParams({ channel, to, body: "Your code is 123456" }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

const typesFor = (target: TestReceiver, messageId: string) =>
  target.events.filter((event) => event.data.id === messageId).map((event) => event.type);

describe("emulator deliveries", () => {
  it("delivers queued, sent, delivered in order, each verified by a real Receiver", async () => {
    const target = await receiver();
    const { emulator } = await setup(target);
    const ids = [
      await createMessage(emulator, "sms", "+15551234567"),
      await createMessage(emulator, "email", "ada@example.com"),
      await createMessage(emulator, "push", "device-token-1"),
    ];
    await emulator.idle();
    for (const id of ids) expect(typesFor(target, id)).toEqual(["message.queued", "message.sent", "message.delivered"]);
    expect(target.events).toHaveLength(9);
    expect(target.requests).toBe(9);
    const delivered = target.events.find((event) => event.data.id === ids[1] && event.type === "message.delivered");
    expect(delivered).toMatchObject({ data: { id: ids[1], status: "delivered", channel: "email" } });
    expect(delivered?.id).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(new Set(target.events.map((event) => event.id)).size).toBe(9);
  });

  it("many messages in flight at once: every one delivered, and no listener-leak warning from Node", async () => {
    const target = await receiver();
    // Each event waits before its first attempt, so that all thirty messages wait at once.
    const { emulator } = await setup(target, { chaos: { delayMs: [100, 200] } });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const ids = await Promise.all(
        Array.from({ length: 30 }, (_, n) => createMessage(emulator, "sms", `+1555000${String(n).padStart(4, "0")}`)),
      );
      await emulator.idle();
      expect(target.events).toHaveLength(90);
      for (const id of ids) expect(typesFor(target, id)).toHaveLength(3);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("sends a message's next event only after the previous one was answered", async () => {
    // Every answer is held a little: an emulator that did not wait would have two requests open at once.
    let open = 0;
    let most = 0;
    const order: string[] = [];
    const target = await receiver({
      intercept: (request, response) => {
        most = Math.max(most, ++open);
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          order.push((JSON.parse(Buffer.concat(chunks).toString()) as { type: string }).type);
          setTimeout(() => {
            open--;
            response.writeHead(200).end();
          }, 20);
        });
        return true;
      },
    });
    const { emulator } = await setup(target);
    await createMessage(emulator, "sms", "+15551234567");
    await emulator.idle();
    expect(order).toEqual(["message.queued", "message.sent", "message.delivered"]);
    expect(most).toBe(1);
  });

  it("signs every delivery over the exact body with a current timestamp", async () => {
    const seen: { body: string; signature: string; contentType: string | undefined }[] = [];
    const target = await receiver({
      intercept: (request, response) => {
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          seen.push({
            body: Buffer.concat(chunks).toString(),
            signature: String(request.headers["service-signature"]),
            contentType: request.headers["content-type"],
          });
          response.writeHead(200).end();
        });
        return true;
      },
    });
    const { emulator } = await setup(target);
    await createMessage(emulator, "sms", "+15551234567");
    await emulator.idle();
    expect(seen).toHaveLength(3);
    for (const { body, signature, contentType } of seen) {
      expect(contentType).toBe("application/json");
      expect(() => verify(body, signature, SECRET)).not.toThrow();
    }
  });

  it.each(Object.entries(FAILING_RECIPIENTS))(
    "ends with message.failed for the %s test recipient %s",
    async (channel, to) => {
      const target = await receiver();
      const { emulator } = await setup(target);
      const id = await createMessage(emulator, channel, to);
      await emulator.idle();
      expect(typesFor(target, id)).toEqual(["message.queued", "message.sent", "message.failed"]);
      expect(target.events.at(-1)?.data).toMatchObject({ status: "failed", channel });
    },
  );

  it("retries an event answered 500 and then goes on with the next event", async () => {
    const target = await receiver({
      intercept: (_request, response, n) => {
        if (n !== 1) return false;
        response.writeHead(500).end();
        return true;
      },
    });
    const { emulator, log } = await setup(target, { retry: { attempts: 3, baseDelayMs: 5, factor: 2 } });
    const id = await createMessage(emulator, "sms", "+15551234567");
    await emulator.idle();
    expect(target.requests).toBe(4);
    expect(typesFor(target, id)).toEqual(["message.queued", "message.sent", "message.delivered"]);
    const attempts = log.filter((line) => line.startsWith(id));
    expect(attempts).toEqual([
      `${id} message.queued attempt 1/3: 500, next retry in 5 ms`,
      `${id} message.queued attempt 2/3: 200, delivered`,
      `${id} message.sent attempt 1/3: 200, delivered`,
      `${id} message.delivered attempt 1/3: 200, delivered`,
    ]);
  });

  it("re-signs each retry and keeps the event id, so the receiver can dedup", async () => {
    const attempts: { body: string; signature: string }[] = [];
    const target = await receiver({
      intercept: (request, response, n) => {
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          attempts.push({
            body: Buffer.concat(chunks).toString(),
            signature: String(request.headers["service-signature"]),
          });
          response.writeHead(n === 1 ? 503 : 200).end();
        });
        return true;
      },
    });
    const { emulator } = await setup(target);
    await createMessage(emulator, "sms", "+15551234567");
    await emulator.idle();
    const [first, retry] = attempts;
    expect(JSON.parse(retry?.body ?? "")).toEqual(JSON.parse(first?.body ?? ""));
    expect(() => verify(retry?.body ?? "", retry?.signature, SECRET)).not.toThrow();
  });

  it("makes a bounded number of attempts per event when the receiver is down, then abandons the message", async () => {
    let connections = 0;
    const down = createServer((socket: Socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => down.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => down.close(() => resolve())));
    const { port } = down.address() as AddressInfo;
    const { emulator, log } = await setup(
      { url: `http://127.0.0.1:${port}/webhooks` },
      {
        retry: { attempts: 3, baseDelayMs: 2, factor: 3 },
      },
    );
    const id = await createMessage(emulator, "sms", "+15551234567");
    await emulator.idle();
    expect(connections).toBe(9);
    const lines = log.filter((line) => line.startsWith(`${id} message.queued`));
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^${id} message.queued attempt 1/3: \\S+, next retry in 2 ms$`)),
      expect.stringMatching(new RegExp(`^${id} message.queued attempt 2/3: \\S+, next retry in 6 ms$`)),
      expect.stringMatching(new RegExp(`^${id} message.queued attempt 3/3: \\S+, giving up$`)),
    ]);
    expect(log.filter((line) => line.endsWith("giving up"))).toHaveLength(3);
  });

  it("reports a refused connection by its error code", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const { emulator, log } = await setup(
      { url: `http://127.0.0.1:${port}/` },
      { retry: { attempts: 2, baseDelayMs: 1 } },
    );
    const id = await createMessage(emulator, "push", "token");
    await emulator.idle();
    expect(log).toContain(`${id} message.queued attempt 1/2: ECONNREFUSED, next retry in 1 ms`);
    expect(log).toContain(`${id} message.delivered attempt 2/2: ECONNREFUSED, giving up`);
  });

  it("close() cancels pending retries and resolves", async () => {
    let requests = 0;
    const target = await receiver({
      intercept: (_request, response) => {
        requests++;
        response.writeHead(500).end();
        return true;
      },
    });
    const { emulator } = await setup(target, { retry: { attempts: 5, baseDelayMs: 60_000 } });
    await createMessage(emulator, "sms", "+15551234567");
    await until(() => requests > 0, "the first attempt");
    await emulator.close();
    expect(requests).toBe(1);
    await expect(fetch(`${emulator.url}/v3/messages`, { method: "POST" })).rejects.toThrow();
  });

  it("checks its options at start", async () => {
    await expect(startEmulator({ webhookUrl: "not a url", secret: SECRET })).rejects.toThrow(TypeError);
    await expect(startEmulator({ webhookUrl: "http://x", secret: "" })).rejects.toThrow(TypeError);
    await expect(startEmulator({ webhookUrl: "http://x", secret: SECRET, retry: { attempts: 0 } })).rejects.toThrow(
      /attempts/,
    );
  });
});
