import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { sign } from "@tidings/core";
import type { Pool } from "pg";
import { createApp } from "../../examples/multi-endpoint-postgres/app";
import { listening, type RunningExample } from "./example-servers";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ROTATE_SCRIPT = "examples/multi-endpoint-postgres/rotate-secret.ts";

/** The receiver's clock: real time plus an offset a test moves forward to pass a secret's deadline. */
export class Clock {
  offsetMs = 0;
  readonly now = () => Date.now() + this.offsetMs;
}

export interface RunningMultiEndpoint extends RunningExample {
  /** Every line the app logged: its event lines, and 5xx failures. */
  lines: string[];
}

/** The example's app on a free loopback port, on `pool`, with `clock` as its Receiver's clock. */
export async function startMultiEndpoint(pool: Pool, clock = new Clock()): Promise<RunningMultiEndpoint> {
  const lines: string[] = [];
  const app = createApp({ pool, now: clock.now, log: (line) => lines.push(line) });
  return { ...(await listening(app.listen(0, "127.0.0.1"))), lines };
}

export interface Answer {
  status: number;
  code: string | undefined;
  duplicate: boolean;
}

/** POSTs a `message.delivered` event with this id, signed now with `secret`, to `url`. */
export async function deliver(url: string, secret: string, eventId: string, messageId = `msg_${eventId}`) {
  const body = JSON.stringify({
    id: eventId,
    type: "message.delivered",
    data: { id: messageId, status: "delivered", channel: "sms" },
  });
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "service-signature": sign(body, secret) },
    body,
  });
  const answer = (await response.json()) as { duplicate?: boolean; error?: { code: string } };
  return { status: response.status, code: answer.error?.code, duplicate: answer.duplicate === true } as Answer;
}

/** Runs the example's `rotate-secret` script, as `npm run rotate-secret` does; resolves to what it printed. */
export async function rotateWithScript(databaseUrl: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", ROTATE_SCRIPT, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  return stdout;
}
