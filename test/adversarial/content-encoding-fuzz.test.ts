import { createReceiver, sign } from "@tidings/core";
import { handleWebRequest } from "@tidings/core/adapter";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { delivery, eventBody, SECRET } from "../conformance/deliveries";
import { ALL_TARGETS } from "../conformance/targets";

const RUNS = 60_000;
const TOKENS = [
  "gzip",
  "x-gzip",
  "deflate",
  "br",
  "identity",
  "GZIP",
  " br ",
  "zstd",
  "compress",
  "constructor",
  "__proto__",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "prototype",
  "",
];
/** Lists of known, unknown and prototype-named codings, and arbitrary printable text. */
const coding = fc.oneof(
  fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 6 }).map((tokens) => tokens.join(",")),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 40 }),
);

const body = eventBody({ id: "evt_encoding" });
const signature = sign(body, SECRET);

function request(value: string): Request | undefined {
  try {
    return new Request("http://127.0.0.1/webhooks", {
      method: "POST",
      headers: { "service-signature": signature, "content-encoding": value },
      body: body as Uint8Array<ArrayBuffer>,
    });
  } catch {
    return undefined; // not a valid header value: no HTTP request can carry it
  }
}

describe("Content-Encoding fuzz", () => {
  it(`${RUNS} values through core's reader: only 2xx or 4xx answers, never 5xx`, async () => {
    const receiver = createReceiver({ secret: SECRET, logger: { error() {} } });
    const statuses = new Map<number, number>();
    let sent = 0;
    // 415s are the common case here: their stack traces would cost most of the run and assert nothing.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    for (const value of fc.sample(coding, { numRuns: RUNS, seed: 7 })) {
      const built = request(value);
      if (built === undefined) continue;
      sent++;
      const { status } = await handleWebRequest(receiver, built, "Read nothing first.");
      expect(status < 300 || (status >= 400 && status < 500), `${JSON.stringify(value)} → ${status}`).toBe(true);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    Error.stackTraceLimit = stackTraceLimit;
    expect(sent).toBeGreaterThanOrEqual(50_000);
    // Reached both answers: identity-only lists verify, everything unsupported is 415 (or 400 for undecodable data).
    expect([...statuses.keys()]).toEqual(expect.arrayContaining([200, 400, 415]));
  });

  for (const target of ALL_TARGETS) {
    it(`${target.name}: 150 values over the adapter, never 5xx`, async () => {
      const receiver = createReceiver({ secret: SECRET, logger: { error() {} } });
      const app = await target.start(receiver);
      try {
        for (const value of fc.sample(coding, { numRuns: 150, seed: 11 })) {
          if (request(value) === undefined || value.trim() !== value) continue;
          const response = await app.send(delivery(eventBody(), { headers: { "content-encoding": value } }));
          expect(response.status, JSON.stringify(value)).toBeLessThan(500);
        }
      } finally {
        await app.close();
      }
    });
  }
});
