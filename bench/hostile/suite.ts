/**
 * What the worst unsigned requests cost the server, in CPU time per request, against a plain unsigned request of the
 * same wire size, measured in the same server in the same run. Target: every ratio ≤ 10.
 */
import { join } from "node:path";
import { postOnce } from "../instructions/post";
import { BENCH_DIR, Child } from "../lib/children";
import { table } from "../lib/format";
import { type HostileCase, hostileCases, plainOfSize, wireSize } from "./cases";

export interface HostileRow {
  name: string;
  what: string;
  wireBytes: number;
  status: number;
  cpuMicrosPerRequest: number;
  plainCpuMicrosPerRequest: number;
  ratio: number;
}

export const HOSTILE_TARGET = 10;

async function send(port: number, sent: HostileCase): Promise<number> {
  const headers = { ...sent.headers, "content-length": String(sent.body.byteLength) };
  return (await postOnce(port, "/webhooks", headers, sent.body)).status;
}

/** Server CPU microseconds per request over `count` sequential requests (after a warm-up of the same size). */
async function cpuPerRequest(server: Child, port: number, sent: HostileCase, count: number) {
  let status = 0;
  for (let n = 0; n < Math.min(count, 50); n++) status = await send(port, sent);
  const before = await server.call<number>("cpu");
  for (let n = 0; n < count; n++) await send(port, sent);
  const after = await server.call<number>("cpu");
  return { status, micros: (after - before) / count };
}

export async function runHostileSuite(quick: boolean, log: (line: string) => void): Promise<HostileRow[]> {
  const server = new Child(join(BENCH_DIR, "hostile", "server.ts"), { cpu: 0 });
  const count = quick ? 50 : 400;
  try {
    const port = await server.call<number>("port");
    const rows: HostileRow[] = [];
    for (const hostile of hostileCases()) {
      const wireBytes = wireSize(hostile);
      // Alternating halves, so a drift in the machine's load falls on both sides alike.
      const plain = plainOfSize(wireBytes);
      const a = await cpuPerRequest(server, port, hostile, count / 2);
      const b = await cpuPerRequest(server, port, plain, count / 2);
      const c = await cpuPerRequest(server, port, hostile, count / 2);
      const d = await cpuPerRequest(server, port, plain, count / 2);
      const cpu = (a.micros + c.micros) / 2;
      const plainCpu = (b.micros + d.micros) / 2;
      const row = {
        name: hostile.name,
        what: hostile.what,
        wireBytes,
        status: a.status,
        cpuMicrosPerRequest: cpu,
        plainCpuMicrosPerRequest: plainCpu,
        ratio: cpu / plainCpu,
      };
      log(
        `hostile ${row.name}: ${row.status}, ${cpu.toFixed(0)} µs vs ${plainCpu.toFixed(0)} µs, ×${row.ratio.toFixed(2)}`,
      );
      rows.push(row);
    }
    return rows;
  } finally {
    await server.stop();
  }
}

/** The report's section: one row per hostile request. */
export function renderHostile(rows: readonly HostileRow[]): string {
  const cells = rows.map((row) => [
    ...[row.name, row.what, row.wireBytes, row.status].map(String),
    ...[row.cpuMicrosPerRequest, row.plainCpuMicrosPerRequest].map((micros) => micros.toFixed(0)),
    row.ratio.toFixed(2),
    row.ratio <= HOSTILE_TARGET ? "met" : "missed",
  ]);
  return [
    "## Hostile unsigned requests",
    "",
    `Server CPU time per request (Express adapter) of each request against an unsigned plain JSON request of the same wire size, same server, same run. Target: ≤ ${HOSTILE_TARGET}×.`,
    "",
    table("request | what | wire bytes | answer | CPU µs/request | plain µs/request | ratio | target", cells),
  ].join("\n");
}
