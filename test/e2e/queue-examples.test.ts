import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type Emulator, startEmulator } from "@tidings/cli";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureNodeBinaries, nodeBinary } from "../runtimes/lib/node-binaries.mjs";
import { PostgresServer } from "../support/postgres-server";
import { RedisServer } from "../support/redis-server";
import { until } from "../support/wait";
import { type MessageRecord, messageRecord } from "./example-servers";

const SECRET = "whsec_queue_e2e";
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const running: ChildProcess[] = [];
const closing: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(closing.splice(0).map((thing) => thing.close()));
  for (const child of running.splice(0)) child.kill("SIGKILL");
});

/** Starts an example's entry point with tsx, as `npm run start:…` does; resolves to the first line it prints. */
function startEntry(node: string, script: string, env: Record<string, string>): Promise<string> {
  const child = spawn(node, ["--import", "tsx", script], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk;
      if (stdout.includes("\n")) resolve(stdout.slice(0, stdout.indexOf("\n")));
    });
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}):\n${stderr}`)));
  });
}

async function startExample(node: string, dir: string, env: Record<string, string>): Promise<string> {
  const [receiverLine] = await Promise.all([
    startEntry(node, `examples/${dir}/receiver-server.ts`, { WEBHOOK_SECRET: SECRET, ...env }),
    startEntry(node, `examples/${dir}/worker-process.ts`, env),
  ]);
  return (receiverLine.match(/http:\/\/[\d.]+:\d+/) as RegExpMatchArray)[0];
}

async function sendMessage(emulator: Emulator, to: string): Promise<string> {
  const response = await fetch(`${emulator.url}/v3/messages`, {
    method: "POST",
    headers: { authorization: "Bearer sk_test_queue" },
    body: new URLSearchParams({ channel: "sms", to, body: "hi" }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

async function followThroughQueue(url: string): Promise<[MessageRecord | undefined, MessageRecord | undefined]> {
  const emulator = await startEmulator({ webhookUrl: `${url}/webhooks`, secret: SECRET, log: false });
  closing.push(emulator);
  const ok = await sendMessage(emulator, "+15551234567");
  const failing = await sendMessage(emulator, "+15005550001");
  const final = (id: string) =>
    until(async () => {
      const record = await messageRecord(url, id);
      return record?.events.length === 3 && record;
    }, `message ${id}'s three events recorded`);
  return [await final(ok), await final(failing)];
}

const expectFinal = ([ok, failing]: [MessageRecord | undefined, MessageRecord | undefined]) => {
  expect(ok).toMatchObject({ status: "delivered" });
  expect([...(ok?.events ?? [])].sort()).toEqual(["message.delivered", "message.queued", "message.sent"]);
  expect(failing).toMatchObject({ status: "failed" });
  expect([...(failing?.events ?? [])].sort()).toEqual(["message.failed", "message.queued", "message.sent"]);
};

describe("the BullMQ example: Express receiver and worker process, driven by the emulator", () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await RedisServer.start();
  });
  afterAll(() => redis.stop());

  it("hands every delivery to the worker, which records each message's final status", async () => {
    const url = await startExample(process.execPath, "bullmq", { REDIS_URL: `redis://127.0.0.1:${redis.port}` });
    expectFinal(await followThroughQueue(url));
  });
});

describe("the pg-boss example: Fastify receiver and worker process on Node 24, driven by the emulator", () => {
  let postgres: PostgresServer;
  beforeAll(async () => {
    ensureNodeBinaries();
    postgres = await PostgresServer.start();
  });
  afterAll(() => postgres.stop());

  it("hands every delivery to the worker, which records each message's final status", async () => {
    const url = await startExample(nodeBinary("node24"), "pg-boss", { DATABASE_URL: postgres.url });
    expectFinal(await followThroughQueue(url));
  });
});
