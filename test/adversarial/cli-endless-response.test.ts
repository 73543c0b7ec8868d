import { once } from "node:events";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { startEmulator } from "@tidings/cli";
import { afterEach, describe, expect, it } from "vitest";
import { tidings } from "../e2e/cli";
import { until } from "../support/wait";

// A receiver that answers with a body that never ends: `tidings check`, `tidings send` and the emulator read the few
// KiB they show and drop the rest. Bounded by what the server managed to write (the socket buffers, a few MiB), not
// by time: read whole, each answer would run to hundreds of MiB within the commands' timeouts.

const SECRET = "whsec_endless";
/** JSON whitespace: an error answer stays valid JSON however much of it is read. */
const CHUNK = Buffer.alloc(64 * 1024, " ");
/** The most one answer may cost: the kernel's socket buffers on both ends, with room to spare. */
const BOUND_BYTES = 32 * 1024 * 1024;

interface EndlessServer {
  url: string;
  /** Bytes written per answer, for answers that have ended (the client went away). */
  written: number[];
  close(): Promise<void>;
}

async function stream(response: ServerResponse, written: number[]): Promise<void> {
  let bytes = 0;
  const closed = once(response, "close");
  while (!response.destroyed) {
    bytes += CHUNK.byteLength;
    if (!response.write(CHUNK)) await Promise.race([once(response, "drain"), closed]);
  }
  written.push(bytes);
}

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

async function startEndless(status: number): Promise<EndlessServer> {
  const written: number[] = [];
  server = createServer((request, response) => {
    request.resume();
    response.writeHead(status, { "content-type": "application/json" });
    response.write(status >= 400 ? '{"error":{"code":"endless_error"}}' : "{}");
    void stream(response, written);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const current = server;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    written,
    close: () => new Promise((resolve) => current.close(() => resolve())),
  };
}

describe("an endless answer from the receiver", () => {
  it("tidings check finishes every probe and reads a few KiB of each answer", async () => {
    const endless = await startEndless(200);
    const result = await tidings(["check", "--url", endless.url, "--secret", SECRET, "--timeout", "20000", "--json"]);
    const report = JSON.parse(result.stdout) as { results: { got: string }[] };
    expect(report.results.map((probe) => probe.got)).toEqual(Array(12).fill("200"));
    await until(() => endless.written.length === 12, "the receiver to see all 12 answers end");
    expect(Math.max(...endless.written)).toBeLessThan(BOUND_BYTES);
  });

  it("tidings send finishes and shows the receiver's error code from the start of the answer", async () => {
    const endless = await startEndless(400);
    const result = await tidings([
      "send",
      "--url",
      endless.url,
      "--secret",
      SECRET,
      "--count",
      "3",
      "--timeout",
      "20000",
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/400 endless_error/);
    await until(() => endless.written.length === 3, "the receiver to see all 3 answers end");
    expect(Math.max(...endless.written)).toBeLessThan(BOUND_BYTES);
  });

  it("the emulator's delivery attempts end, and the log carries the receiver's error code", async () => {
    const endless = await startEndless(400);
    const lines: string[] = [];
    const emulator = await startEmulator({
      webhookUrl: endless.url,
      secret: SECRET,
      retry: { attempts: 2, baseDelayMs: 0 },
      attemptTimeoutMs: 20_000,
      log: (line) => lines.push(line),
    });
    try {
      const created = await fetch(`${emulator.url}/v3/messages`, {
        method: "POST",
        headers: { authorization: "Bearer sk_test_endless" },
        body: new URLSearchParams({ channel: "sms", to: "+15551234567", body: "hi" }),
      });
      expect(created.status).toBe(202);
      await emulator.idle();
    } finally {
      await emulator.close();
    }
    expect(lines.filter((line) => line.includes("attempt 2/2: 400 endless_error, giving up"))).toHaveLength(3);
    await until(() => endless.written.length === 6, "the receiver to see all 6 answers end");
    expect(Math.max(...endless.written)).toBeLessThan(BOUND_BYTES);
  });
});
