import { request } from "node:http";
import { type Emulator, startEmulator } from "@tidings/cli";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 sends its requests with
// `Host: evil.example`; a page of another site posting to the dashboard sends its own `Origin`. Neither may read the
// signed payloads nor change anything.

let emulator: Emulator;
let port: number;

beforeAll(async () => {
  emulator = await startEmulator({
    webhookUrl: "http://127.0.0.1:9/webhooks",
    secret: "whsec_rebinding",
    retry: { attempts: 1 },
    log: false,
    dashboard: true,
  });
  port = Number(new URL(emulator.dashboardUrl as string).port);
});
afterAll(() => emulator?.close());

function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers, setHost: false }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => {
        text += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const CALLS = [
  ["GET", "/api/state", undefined],
  ["GET", "/", undefined],
  ["POST", "/api/test-events", '{"type":"message.delivered"}'],
  ["PUT", "/api/chaos", '{"duplicates":1}'],
  ["POST", "/api/pause", "{}"],
  ["POST", "/api/resume", "{}"],
] as const;

const json = { "content-type": "application/json" };

describe("the dashboard against DNS rebinding and cross-origin writes", () => {
  it.each(CALLS)("%s %s with Host: evil.example is refused (421), and nothing changes", async (method, path, body) => {
    const answer = await send(method, path, { host: `evil.example:${port}`, ...json }, body);
    expect(answer.status).toBe(421);
    expect(answer.body).not.toContain("Service-Signature");
    const state = JSON.parse((await send("GET", "/api/state", { host: `127.0.0.1:${port}` })).body);
    expect([state.paused, state.chaos.duplicates, state.messages]).toEqual([false, 0, []]);
  });

  it("any Host that is not a loopback name with the dashboard's port is refused", async () => {
    const allowed = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.domain(),
          fc.ipV4(),
          fc.constantFrom("localhost", "127.0.0.1", "[::1]", "localhost.evil.example", "127.0.0.1.nip.io"),
        ),
        fc.oneof(fc.constant(port), fc.integer({ min: 1, max: 65_535 }), fc.constant(undefined)),
        async (name, hostPort) => {
          const host = hostPort === undefined ? name : `${name}:${hostPort}`;
          fc.pre(!allowed.has(host.toLowerCase()));
          expect((await send("GET", "/api/state", { host })).status).toBe(421);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("answers its own loopback names, with the port", async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await send("GET", "/api/state", { host })).status, host).toBe(200);
    }
  });

  it("refuses a write from another origin (403), and takes one from its own page", async () => {
    const host = `127.0.0.1:${port}`;
    for (const origin of ["http://evil.example", `http://evil.example:${port}`, "null", `https://${host}`]) {
      const answer = await send("POST", "/api/pause", { host, origin, ...json }, "{}");
      expect(answer.status, origin).toBe(403);
    }
    expect(JSON.parse((await send("GET", "/api/state", { host })).body).paused).toBe(false);
    const own = await send("POST", "/api/pause", { host, origin: `http://${host}`, ...json }, "{}");
    expect([own.status, JSON.parse(own.body).paused]).toEqual([200, true]);
    await send("POST", "/api/resume", { host, ...json }, "{}");
  });
});
