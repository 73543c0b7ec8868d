import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { SIGNATURE_HEADER, verify } from "@tidings/core";
import { parseSignatureHeader } from "@tidings/core/schemes";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckReport } from "../src/check/run-check";
import { runCli, SECRET, startReceiver } from "./helpers";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const ALL_PROBES = [
  "valid",
  "duplicate",
  "tampered-body",
  "wrong-secret",
  "missing-header",
  "malformed-header",
  "timestamp-old",
  "timestamp-future",
  "several-v1",
  "unusual-body",
  "large-body",
  "get",
];

/**
 * A hand-written receiver: POST only, reads the raw body, answers 200 when `accepts` returns true and 400 when it
 * returns false or throws. Each broken receiver below gets exactly one thing wrong.
 */
async function handWritten(accepts: (raw: Buffer, header: string | undefined) => boolean): Promise<string> {
  const server = createServer((request, response) => {
    if (request.method !== "POST") return void response.writeHead(405).end();
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let ok = false;
      try {
        ok = accepts(Buffer.concat(chunks), request.headers[SIGNATURE_HEADER] as string | undefined);
      } catch {}
      response.writeHead(ok ? 200 : 400).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

/** HMAC check over the raw bytes against every v1, with a caller-chosen timestamp rule. */
function signatureHolds(raw: Buffer, header: string | undefined, timestampOk: (age: number) => boolean): boolean {
  const { timestamp, signatures } = parseSignatureHeader(header ?? "");
  const expected = createHmac("sha256", SECRET).update(`${timestamp}.`).update(raw).digest();
  const matches = signatures.some((v1) => {
    const given = Buffer.from(v1, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches && timestampOk(Math.floor(Date.now() / 1000) - timestamp);
}

async function check(url: string, extra: string[] = []) {
  const run = await runCli(["check", "--url", url, "--secret", SECRET, "--json", "--size", "200000", ...extra]);
  const report = JSON.parse(run.stdout) as CheckReport;
  const failed = report.results.filter((result) => !result.pass).map((result) => result.name);
  return { run, report, failed };
}

describe("tidings check", () => {
  it("passes every probe against a Tidings receiver, and exits 0", async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const { run, report, failed } = await check(receiver.url);
    expect(failed).toEqual([]);
    expect(run.code).toBe(0);
    expect(report.results.map((result) => result.name)).toEqual(ALL_PROBES);
    // The valid delivery and its duplicate were handled once; the other two 2xx probes once each.
    expect(receiver.events).toHaveLength(4);
    expect(report.results.find((result) => result.name === "large-body")?.bytesSent).toBe(200_000);
    // Every result has every field of the README's list: code is null where the receiver named none.
    expect(report.results.find((result) => result.name === "valid")).toMatchObject({ status: 200, code: null });
    expect(report.results.find((result) => result.name === "wrong-secret")?.code).toBe("signature_mismatch");
  });

  it("says null for the status and code of a probe that got no answer", async () => {
    const { report } = await check("http://127.0.0.1:9/webhooks", ["--timeout", "2000"]);
    expect(report.results[0]).toMatchObject({ status: null, code: null });
  });

  it("fails only the BOM and whitespace probe on a receiver that verifies re-serialised JSON", async () => {
    const url = await handWritten((raw, header) => {
      const parsed: unknown = JSON.parse(new TextDecoder().decode(raw));
      verify(JSON.stringify(parsed), header, SECRET);
      return true;
    });
    const { run, report, failed } = await check(url);
    expect(failed).toEqual(["unusual-body"]);
    expect(run.code).toBe(1);
    expect(report.results.find((result) => result.name === "unusual-body")).toMatchObject({
      expected: "2xx",
      got: "400",
      hint: expect.stringContaining("JSON.stringify(req.body)"),
    });
  });

  it("fails only the two timestamp probes on a receiver with no tolerance check", async () => {
    const url = await handWritten((raw, header) => signatureHolds(raw, header, () => true));
    expect((await check(url)).failed).toEqual(["timestamp-old", "timestamp-future"]);
  });

  it("fails only the future timestamp probe on a receiver that checks age but accepts the future", async () => {
    const url = await handWritten((raw, header) => signatureHolds(raw, header, (age) => age <= 300));
    const { failed, report } = await check(url);
    expect(failed).toEqual(["timestamp-future"]);
    expect(report.results.find((result) => result.name === "timestamp-future")?.hint).toContain("both sides");
  });

  it("prints a report card: pass or fail, expected, got, the fix under each failure", async () => {
    const url = await handWritten((raw, header) => signatureHolds(raw, header, () => true));
    const run = await runCli(["check", "--url", url, "--secret", SECRET, "--size", "1000"]);
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`tidings check ${url}`);
    expect(lines.find((line) => line.includes("a valid delivery"))).toMatch(/^PASS .* expected 2xx +got 200 /);
    const old = lines.findIndex((line) => line.includes("6 minutes old"));
    expect(lines[old]).toMatch(/^FAIL .* expected 4xx +got 200 /);
    expect(lines[old + 1]).toMatch(/^ +fix: The timestamp window is not checked/);
    expect(lines.at(-1)).toMatch(/^12 probes: 10 passed, 2 failed, 0 slower than 10000 ms/);
  });

  it("flags answers slower than --timeout-warn, and reports a receiver it cannot reach", async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const slow = await check(receiver.url, ["--timeout-warn", "1"]);
    // Not a failure, a warning: every answer over 1 ms carries it (the large body takes longer than that).
    expect(slow.failed).toEqual([]);
    expect(slow.report.results.find((result) => result.name === "large-body")?.slow).toBe(true);
    const gone = await startReceiver();
    await gone.close();
    const { failed, report, run } = await check(gone.url);
    expect(failed).toEqual(ALL_PROBES);
    expect(run.code).toBe(1);
    expect(report.results[0]).toMatchObject({ got: "ECONNREFUSED", hint: expect.stringContaining("No answer") });
  });
});
