import { fileURLToPath } from "node:url";
import { type Emulator, startEmulator } from "@tidings/cli";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAndStartOffline, type RunningOffline } from "../support/serverless-offline";
import { tidings } from "./cli";
import { messageRecord, sendTampered } from "./example-servers";

// examples/lambda bundled and served by serverless-offline, which emulates API Gateway in front of the handler.
const APP_DIR = fileURLToPath(new URL("../../examples/lambda", import.meta.url));
const SECRET = "whsec_lambda_example";
let app: RunningOffline;

beforeAll(async () => {
  app = await buildAndStartOffline(APP_DIR, { WEBHOOK_SECRET: SECRET });
});
afterAll(() => app?.close());

const ROUTES = [
  { route: "/webhooks", api: "HTTP API, payload 2.0" },
  { route: "/dev/rest/webhooks", api: "REST API, v1 proxy integration" },
] as const;

describe.each(ROUTES)("examples/lambda behind API Gateway ($api) at $route", ({ route }) => {
  it("verifies a delivery sent by `tidings send` and serves the status at GET /messages/{id}", async () => {
    const messageId = `msg_lambda${route.replaceAll("/", "_")}`;
    const sent = await tidings([
      "send",
      "--url",
      new URL(route, app.url).href,
      "--secret",
      SECRET,
      "--type",
      "message.delivered",
      "--data",
      JSON.stringify({ id: messageId, channel: "push" }),
    ]);
    expect(sent.code, `${sent.stdout}${sent.stderr}\n${app.output()}`).toBe(0);
    expect(await messageRecord(app.url, messageId)).toMatchObject({ status: "delivered", channel: "push" });
  });

  it("refuses a tampered body and a GET", async () => {
    expect(await sendTampered(new URL(route, app.url), SECRET)).toEqual([400, "signature_mismatch"]);
    const get = await fetch(new URL(route, app.url));
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
  });
});

describe("examples/lambda driven by the emulator", () => {
  let emulator: Emulator;
  afterAll(() => emulator?.close());

  // Concurrent deliveries run in concurrent function instances (serverless-offline starts a worker per concurrent
  // invocation, as Lambda does), each with its own in-memory log: so the test reads the emulator's delivery log and
  // the functions' output, not GET /messages/{id}.
  it("verifies and handles every event of messages sent through the emulator, failing recipient included", async () => {
    const attempts: string[] = [];
    emulator = await startEmulator({
      webhookUrl: new URL("/webhooks", app.url).href,
      secret: SECRET,
      log: (line) => attempts.push(line),
      retry: { baseDelayMs: 20 },
    });
    const send = (to: string) =>
      fetch(`${emulator.url}/v3/messages`, {
        method: "POST",
        headers: { authorization: "Bearer sk_test_lambda" },
        body: new URLSearchParams({ channel: "sms", to, body: "hello" }),
      }).then(async (response) => ({ status: response.status, id: ((await response.json()) as { id: string }).id }));
    const ok = await send("+15551234567");
    const failing = await send("+15005550001");
    expect([ok.status, failing.status]).toEqual([202, 202]);
    await emulator.idle();
    const expected = [
      [ok.id, ["message.queued", "message.sent", "message.delivered"]],
      [failing.id, ["message.queued", "message.sent", "message.failed"]],
    ] as const;
    for (const [id, types] of expected) {
      for (const type of types) {
        expect(attempts, app.output()).toContainEqual(
          expect.stringMatching(`^${id} ${type} attempt \\d+/\\d+: 200, delivered`),
        );
        expect(app.output()).toMatch(new RegExp(`${type.replace(".", "\\.")}\\s+${id}\\s+sms`));
      }
    }
  });
});
