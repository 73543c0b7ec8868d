import { type Emulator, startEmulator } from "@tidings/cli";
import type { Pool } from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPool } from "../../examples/multi-endpoint-postgres/database";
import { createSecretTable, rotateSecret } from "../../examples/multi-endpoint-postgres/secrets";
import { PostgresServer } from "../support/postgres-server";
import { until } from "../support/wait";
import { tidings } from "./cli";
import { messageRecord } from "./example-servers";
import { Clock, deliver, type RunningMultiEndpoint, rotateWithScript, startMultiEndpoint } from "./multi-endpoint";

const SECRETS = { acct_a: "whsec_account_a", acct_b: "whsec_account_b" };
const FAR_AHEAD = new Date(Date.now() + 365 * 24 * 3600 * 1000);

let postgres: PostgresServer;
let pool: Pool;
const closing: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  postgres = await PostgresServer.start();
  pool = createPool(postgres.url);
  await createSecretTable(pool);
  for (const [account, secret] of Object.entries(SECRETS)) await rotateSecret(pool, account, secret, FAR_AHEAD);
});
afterAll(async () => {
  await pool?.end();
  await postgres?.stop();
});
afterEach(async () => {
  await Promise.all(closing.splice(0).map((thing) => thing.close()));
});

async function start(clock?: Clock): Promise<RunningMultiEndpoint> {
  const example = await startMultiEndpoint(pool, clock);
  closing.push(example);
  return example;
}

async function emulatorFor(webhookUrl: string, secret: string): Promise<Emulator> {
  // Retries every 100 ms for 10 s: long enough to outlast a PostgreSQL restart.
  const emulator = await startEmulator({
    webhookUrl,
    secret,
    log: false,
    retry: { attempts: 100, baseDelayMs: 100, factor: 1 },
  });
  closing.push(emulator);
  return emulator;
}

async function sendMessage(emulator: Emulator, to: string): Promise<string> {
  const response = await fetch(`${emulator.url}/v3/messages`, {
    method: "POST",
    headers: { authorization: "Bearer sk_test_multi" },
    body: new URLSearchParams({ channel: "sms", to, body: "hi" }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

const account = (example: RunningMultiEndpoint, name: string) => `${example.url}/accounts/${name}`;

function finalStatus(example: RunningMultiEndpoint, name: string, id: string) {
  return until(async () => {
    const record = await messageRecord(account(example, name), id);
    return record?.events.length === 3 && record;
  }, `message ${id}'s three events recorded`);
}

describe("the multi-endpoint example: one endpoint per account, secrets in PostgreSQL", () => {
  it("verifies each account's deliveries, sent by the emulator, with that account's own secret", async () => {
    const example = await start();
    const fromA = await sendMessage(
      await emulatorFor(`${example.url}/webhooks/acct_a`, SECRETS.acct_a),
      "+15551230001",
    );
    const fromB = await sendMessage(
      await emulatorFor(`${example.url}/webhooks/acct_b`, SECRETS.acct_b),
      "+15005550001",
    );
    expect(await finalStatus(example, "acct_a", fromA)).toMatchObject({ status: "delivered" });
    expect(await finalStatus(example, "acct_b", fromB)).toMatchObject({ status: "failed" });
    // Each account sees only its own messages.
    expect(await messageRecord(account(example, "acct_b"), fromA)).toBeUndefined();
    expect(await messageRecord(account(example, "acct_a"), fromB)).toBeUndefined();
  });

  it("refuses another account's secret with 400 and answers 404 for an account with no secret", async () => {
    const example = await start();
    const crossed = await tidings([
      "send",
      "--url",
      `${example.url}/webhooks/acct_b`,
      "--secret",
      SECRETS.acct_a,
      "--type",
      "message.sent",
    ]);
    expect(crossed.code).not.toBe(0);
    expect(crossed.stdout + crossed.stderr).toContain("400");
    expect(await deliver(`${example.url}/webhooks/acct_b`, SECRETS.acct_a, "evt_crossed")).toMatchObject({
      status: 400,
      code: "signature_mismatch",
    });
    expect(await deliver(`${example.url}/webhooks/acct_nobody`, SECRETS.acct_a, "evt_stranger")).toMatchObject({
      status: 404,
      code: "unknown_endpoint",
    });
  });

  it("handles one event id once per account: both accounts run it, a resend to one is a duplicate", async () => {
    const example = await start();
    const send = (name: keyof typeof SECRETS) =>
      deliver(`${example.url}/webhooks/${name}`, SECRETS[name], "evt_shared", "msg_shared");
    expect(await send("acct_a")).toMatchObject({ status: 200, duplicate: false });
    expect(await send("acct_b")).toMatchObject({ status: 200, duplicate: false });
    expect(await send("acct_a")).toMatchObject({ status: 200, duplicate: true });
    for (const name of ["acct_a", "acct_b"]) {
      expect((await messageRecord(account(example, name), "msg_shared"))?.events).toEqual(["message.delivered"]);
    }
  });

  it("rotates a secret: the old one verifies until its not_after and never after, the new one throughout", async () => {
    const clock = new Clock();
    const example = await start(clock);
    const url = `${example.url}/webhooks/acct_rotating`;
    let n = 0;
    const send = (secret: string) => deliver(url, secret, `evt_rotation_${n++}`);
    expect(await rotateWithScript(postgres.url, ["acct_rotating", "whsec_rotating_old"])).toContain("the only one");
    expect(await send("whsec_rotating_old")).toMatchObject({ status: 200 });
    expect(await send("whsec_rotating_new")).toMatchObject({ status: 400, code: "signature_mismatch" });

    const printed = await rotateWithScript(postgres.url, ["acct_rotating", "whsec_rotating_new", "--grace=60"]);
    const deadline = Date.parse(
      (/the 1 older one\(s\) verify until (\S+)/.exec(printed) as RegExpExecArray)[1] as string,
    );
    expect(await send("whsec_rotating_old")).toMatchObject({ status: 200 });
    expect(await send("whsec_rotating_new")).toMatchObject({ status: 200 });

    // The Receiver's clock moves, not the sender's: the signatures stay minutes inside the 5-minute tolerance.
    clock.offsetMs = deadline - Date.now() - 5_000;
    expect(await send("whsec_rotating_old")).toMatchObject({ status: 200 });
    clock.offsetMs = deadline - Date.now();
    expect(await send("whsec_rotating_old")).toMatchObject({ status: 400, code: "signature_mismatch" });
    expect(await send("whsec_rotating_new")).toMatchObject({ status: 200 });
  });

  it("answers 503 secret_unavailable while PostgreSQL is down, and the sender's retries pass once it is back", async () => {
    const example = await start();
    const url = `${example.url}/webhooks/acct_a`;
    await postgres.stop();
    let down = true;
    try {
      expect(await deliver(url, SECRETS.acct_a, "evt_while_down")).toMatchObject({
        status: 503,
        code: "secret_unavailable",
      });
      const emulator = await emulatorFor(url, SECRETS.acct_a);
      const message = await sendMessage(emulator, "+15551230002");
      // The emulator has been answered 503 at least once too before PostgreSQL comes back.
      await until(
        () => example.lines.filter((line) => line.startsWith("secret_unavailable")).length > 1,
        "the emulator answered 503 secret_unavailable",
      );
      await postgres.start();
      down = false;
      expect(await finalStatus(example, "acct_a", message)).toMatchObject({ status: "delivered" });
    } finally {
      if (down) await postgres.start();
    }
    expect(await deliver(url, SECRETS.acct_a, "evt_after_restart")).toMatchObject({ status: 200 });
  });
});
