import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { sign } from "@tidings/core";
import { run } from "../../packages/cli/src/program";
import { QUEUE_SECRET } from "./queue-fixtures";
import { until } from "./wait";

// Shared by the BullMQ and pg-boss suites: receiver and worker processes of a package's test fixtures, a sender
// that delivers like the service (every copy freshly signed, retried until answered 200), and what the workers
// report having handled.

export { QUEUE_SECRET };

export interface FixtureProcess {
  /** What the process printed as its first line (JSON), e.g. `{ "port": 1234 }`. */
  ready: Record<string, unknown>;
  pid: number;
  /** SIGKILL, or SIGTERM for a graceful stop; resolves once it exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** Runs a TypeScript fixture in a new Node process (this one's binary by default), sources through `@tidings/source`. */
export function startFixture(
  script: string,
  env: Record<string, string>,
  node: string = process.execPath,
): Promise<FixtureProcess> {
  const child = spawn(node, ["--conditions=@tidings/source", "--import", "tsx", script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  exited.then(() => running.delete(child));
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    let stdout = "";
    const onData = (chunk: Buffer) => {
      stdout += chunk;
      const newline = stdout.indexOf("\n");
      if (newline === -1) return;
      child.stdout?.off("data", onData);
      resolve({
        ready: JSON.parse(stdout.slice(0, newline)),
        pid: child.pid ?? 0,
        stop: async (signal = "SIGTERM") => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code, signal) =>
      reject(new Error(`${script} exited (${code ?? signal}) before it was ready:\n${stderr}`)),
    );
  });
}

export function eventBody(id: string): string {
  return JSON.stringify({
    id,
    type: "message.delivered",
    data: { id: `msg_${id}`, status: "delivered", channel: "sms" },
  });
}

/**
 * One delivery as the service sends it: freshly signed, retried (after 5xx, 409 or a refused connection) until 200.
 * Each retry goes at once: what it waits for (the engine back up, another copy's claim released) paces the answers.
 */
export async function deliverUntilAccepted(url: string, body: string, statuses: number[]): Promise<void> {
  await until(
    async () => {
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", "service-signature": sign(body, QUEUE_SECRET) },
          body,
        });
        await response.arrayBuffer();
        statuses.push(response.status);
        return response.status === 200;
      } catch {
        statuses.push(0);
        return false;
      }
    },
    () => `a 200 from ${url} (last statuses ${statuses.slice(-5).join(",")}) for ${body}`,
  );
}

/**
 * Every event delivered `copies` times at once, the copies spread over the receivers, at most `parallel` deliveries
 * in flight; resolves to every HTTP status answered (0: no answer) once each copy was accepted. Each status is also
 * pushed to `statuses` as it comes, for a test that waits on them.
 */
export async function deliverEvents(
  urls: readonly string[],
  ids: readonly string[],
  { copies = 1, parallel = 64, statuses = [] }: { copies?: number; parallel?: number; statuses?: number[] } = {},
): Promise<number[]> {
  const jobs = ids.flatMap((id, i) =>
    Array.from({ length: copies }, (_, copy) => ({ id, url: urls[(i + copy) % urls.length] as string })),
  );
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const job = jobs[next++] as { id: string; url: string };
      await deliverUntilAccepted(job.url, eventBody(job.id), statuses);
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return statuses;
}

export interface HandledRecord {
  id: string;
  attempt: number;
  pid: number;
  deliveryKey: string;
  type: string;
  /** The event as the handler received it. */
  event: unknown;
}

/**
 * What the fixture workers appended to their log file, one JSON line per successful handler run. Only whole lines:
 * read while a worker appends, the file may end inside a line, which is counted once its newline is written.
 */
export function readHandled(file: string): HandledRecord[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8").split("\n");
  return lines
    .slice(0, -1)
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as HandledRecord);
}

export const eventIds = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}_${i}`);

/** Runs `tidings …` (the CLI's own `run`, from its sources) in this process, capturing what it writes. */
export async function tidings(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = { stdout: "", stderr: "" };
  const capture = (stream: "stdout" | "stderr") =>
    new Writable({
      write(chunk, _encoding, done) {
        output[stream] += chunk;
        done();
      },
    });
  const io = { stdin: Readable.from([]), stdout: capture("stdout"), stderr: capture("stderr") };
  const code = await run(args, io);
  return { code, ...output };
}
