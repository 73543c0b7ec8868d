import { fileURLToPath } from "node:url";
import { sign } from "@tidings/core";
import { afterEach, describe, expect, it } from "vitest";
import { inParallel } from "../multi-instance/cluster";
import { type ChildServer, startServer } from "../support/child-process";
import { until } from "../support/wait";

const SECRET = "whsec_shedding";
const BURST = 100;
const LIMIT = 10;
const PADDING = "x".repeat(768 * 1024);
const SERVER = fileURLToPath(new URL("fixtures/slow-receiver.ts", import.meta.url));

interface Stats {
  handled: Record<string, number>;
  maxInHandlers: number;
  overloaded: number;
  /** What deliveries kept alive at the most, after a full collection, over the process's start. */
  peakLiveKiB: number;
}

const servers: ChildServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function slowReceiver(env: Record<string, string>) {
  let port = 0;
  const server = await startServer(
    process.execPath,
    ["--expose-gc", "--conditions=@tidings/source", "--import", "tsx", SERVER],
    {
      cwd: fileURLToPath(new URL(".", import.meta.url)),
      env,
      ready: (output) => {
        const match = /\{"port":(\d+)\}/.exec(output);
        if (match) port = Number(match[1]);
        return match !== null;
      },
    },
  );
  servers.push(server);
  return { url: `http://127.0.0.1:${port}`, server };
}

/**
 * The sender: posts one event (~768 KiB unless told), freshly signed per attempt, retrying 409 and 5xx until answered
 * 2xx. A 503 says when to come back (Retry-After); the retry goes at once, as the receiver's handlers hold their
 * deliveries until it has shed one, and a sender that came back later would find it just as full.
 */
async function deliverUntilAccepted(url: string, id: string, statuses: number[], padding = PADDING): Promise<void> {
  const body = JSON.stringify({ id, type: "message.delivered", data: { id: `msg_${id}` }, padding });
  await until(async () => {
    const response = await fetch(`${url}/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json", "service-signature": sign(body, SECRET) },
      body,
    });
    await response.arrayBuffer();
    statuses.push(response.status);
    if (response.status === 503) expect(response.headers.get("retry-after")).toBe("5");
    return response.status < 300;
  }, `a 2xx for ${id}`);
}

/** A burst of BURST slow deliveries, all at once; every one retried until accepted. */
async function burst(url: string) {
  const statuses: number[] = [];
  const ids = Array.from({ length: BURST }, (_, n) => `evt_burst_${n}`);
  await Promise.all(ids.map((id) => deliverUntilAccepted(url, id, statuses)));
  const stats = (await (await fetch(`${url}/stats`)).json()) as Stats;
  return { ids, statuses, stats };
}

describe("load shedding: maxConcurrentDeliveries", () => {
  it("a burst of 10x the limit of slow deliveries: bounded memory, each delivery handled exactly once", async () => {
    const shedding = await slowReceiver({ MAX_CONCURRENT: String(LIMIT), HOLD: "shed", BURST: String(BURST) });
    const shed = await burst(shedding.url);
    expect(shed.statuses).toContain(503);
    expect(shed.stats.overloaded).toBe(shed.statuses.filter((status) => status === 503).length);
    expect(shed.stats.maxInHandlers).toBeLessThanOrEqual(LIMIT);
    expect(Object.keys(shed.stats.handled).sort()).toEqual([...shed.ids].sort());
    expect(Object.values(shed.stats.handled).every((runs) => runs === 1)).toBe(true);

    // The same burst with no effective limit holds every body at once: the bound is what keeps memory down.
    const unbounded = await slowReceiver({ MAX_CONCURRENT: String(BURST * 10), HOLD: "all", BURST: String(BURST) });
    const all = await burst(unbounded.url);
    expect(all.statuses.every((status) => status === 200)).toBe(true);
    expect(all.stats.maxInHandlers).toBe(BURST);
    // Each delivery in handlers holds its body and event (~1.5 MiB): about 15 MiB against 150 MiB.
    expect(shed.stats.peakLiveKiB * 4).toBeLessThan(all.stats.peakLiveKiB);
  }, 180_000);

  it("fast handlers (a queue hand-off's) at 32 connections are never shed by the default limit", async () => {
    const { url } = await slowReceiver({});
    const statuses: number[] = [];
    await inParallel(
      Array.from({ length: 500 }, (_, n) => () => deliverUntilAccepted(url, `evt_fast_${n}`, statuses, "")),
      32,
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
  }, 120_000);
});
