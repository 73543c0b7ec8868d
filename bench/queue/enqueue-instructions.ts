/**
 * User-space instructions per request of a receiver that hands each delivery to BullMQ: `/adapter` (core's Node
 * handler, a Receiver with its MemoryStore, `enqueueTo`) against `/ideal` (verify, parse and `queue.add` with the same
 * job data and job id, by hand), in the same server process under valgrind's callgrind, Redis in its own process.
 *   node --import tsx/esm queue/enqueue-instructions.ts      (from bench/, after a build; needs valgrind, redis-server)
 * Every request is a new event, so each one adds a job on both routes. Windows of requests take turns between the
 * routes after a warm-up; callgrind's counters are zeroed before and dumped after each window. The minimum over
 * windows leaves out windows that caught a full GC.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RedisServer } from "../../test/support/redis-server";
import { SIGNATURE_HEADER, signedDelivery } from "../lib/deliveries";

const ROUTES = ["ideal", "adapter"] as const;
const WARMUP = 4_000;
const WINDOW = 500;
const WINDOWS = 5;
const CONNECTIONS = 4;

const redis = await RedisServer.start();
const dumps = mkdtempSync(join(tmpdir(), "tidings-queue-callgrind-"));
const server: ChildProcess = spawn(
  "valgrind",
  [
    "--tool=callgrind",
    "--quiet",
    "--cache-sim=no",
    `--callgrind-out-file=${join(dumps, "callgrind.%p")}`,
    process.execPath,
    "--single-threaded",
    "--import",
    "tsx/esm",
    fileURLToPath(new URL("enqueue-server.ts", import.meta.url)),
  ],
  { env: { ...process.env, REDIS_PORT: String(redis.port) }, stdio: ["ignore", "pipe", "inherit"] },
);
const port = await new Promise<number>((resolve, reject) => {
  let output = "";
  server.stdout?.on("data", (chunk: Buffer) => {
    output += chunk;
    if (output.includes("\n")) resolve(JSON.parse(output).port);
  });
  server.once("exit", (code) => reject(new Error(`the server exited (${code}) before listening`)));
});
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
let sent = 0;

function post(path: string): Promise<void> {
  const { body, header } = signedDelivery(512, `evt_${process.pid}_${sent++}`);
  const headers = { "content-type": "application/json", "content-length": body.length, [SIGNATURE_HEADER]: header };
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, path, method: "POST", agent, headers }, (answer) => {
      answer.resume();
      answer.on("end", () =>
        answer.statusCode === 200 ? resolve() : reject(new Error(`${path}: ${answer.statusCode}`)),
      );
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

async function send(route: string, amount: number): Promise<void> {
  let left = amount;
  const connection = async () => {
    while (left-- > 0) await post(`/${route}`);
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, connection));
}

function instructionsInLastDump(): number {
  const prefix = `callgrind.${server.pid}.`;
  const last = Math.max(
    ...readdirSync(dumps)
      .filter((name) => name.startsWith(prefix))
      .map((name) => Number(name.slice(prefix.length))),
  );
  const summary = /^summary: (\d+)/m.exec(readFileSync(join(dumps, `${prefix}${last}`), "utf8"));
  if (!summary) throw new Error("no summary line in the callgrind dump");
  return Number(summary[1]);
}

const perRequest = new Map<string, number[]>(ROUTES.map((route) => [route, []]));
try {
  for (const route of ROUTES) await send(route, WARMUP);
  for (let window = 0; window < WINDOWS; window++) {
    for (const route of ROUTES) {
      execFileSync("callgrind_control", ["--zero", String(server.pid)], { stdio: "ignore" });
      await send(route, WINDOW);
      execFileSync("callgrind_control", ["--dump", String(server.pid)], { stdio: "ignore" });
      perRequest.get(route)?.push(instructionsInLastDump() / WINDOW);
    }
  }
} finally {
  agent.destroy();
  server.kill("SIGTERM");
  await redis.stop();
  rmSync(dumps, { recursive: true, force: true });
}

const k = (value: number) => `${(value / 1000).toFixed(1)}k`;
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)] as number;
const ideal = perRequest.get("ideal") as number[];
console.log(
  `BullMQ hand-off: user-space instructions per request, ${WINDOWS} windows of ${WINDOW} after ${WARMUP} warm-up`,
);
for (const route of ROUTES) {
  const counts = perRequest.get(route) as number[];
  const ratio =
    route === "ideal"
      ? ""
      : `; ÷ ideal: ${(Math.min(...counts) / Math.min(...ideal)).toFixed(3)} (min), ${(median(counts) / median(ideal)).toFixed(3)} (median)`;
  console.log(
    `  ${route.padEnd(8)} min ${k(Math.min(...counts))}, median ${k(median(counts))} (${counts.map(k).join(" ")})${ratio}`,
  );
}
