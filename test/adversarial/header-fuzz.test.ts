import { safeVerify, safeVerifyAsync, sign, verify, verifyAsync, WebhookVerificationError } from "@tidings/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const SECRET = "whsec_fuzz";
const BODY = '{"id":"evt_fuzz","type":"message.sent"}';
const RUNS = Number(process.env.FUZZ_RUNS ?? 200_000);
// A long run by design (about 30 s on an idle 2-core machine): its own time limit, not the suite's 30 s.
const BATCH = 10_000;
// One clock for every call, so a signature at the edge of the window gets the same answer from each of them.
const NOW_S = Math.floor(Date.now() / 1000);
const OPTIONS = { now: () => NOW_S * 1000 };

const hex = fc.stringMatching(/^[0-9a-fA-F]{0,70}$/);
const digits = fc.stringMatching(/^[0-9]{0,20}$/);
const pair = fc.oneof(
  fc.tuple(fc.constantFrom("t", "v1", "v0", "T", "V1", " t", "v1 ", ""), fc.oneof(digits, hex, fc.string())),
  fc.tuple(fc.string({ maxLength: 4 }), fc.string({ maxLength: 12 })),
);
/** Near-miss headers (the grammar's pieces, shuffled and broken) mixed with arbitrary text and valid signatures. */
const header = fc.oneof(
  fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join(",")),
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.stringMatching(/^[0-9a-f]{64}$/).map((v1) => `t=${NOW_S},v1=${v1}`),
  fc.integer({ min: -400, max: 400 }).map((skew) => sign(BODY, SECRET, { timestamp: NOW_S + skew })),
  fc.constantFrom(undefined, null, "", ",", "t=", "v1=", "t=1,v1=", `t=${"9".repeat(400)},v1=${"a".repeat(64)}`),
);

function outcome(run: () => unknown): string {
  try {
    run();
    return "ok";
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return error.code;
  }
}

async function outcomeAsync(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return "ok";
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return error.code;
  }
}

describe("Service-Signature header fuzz", () => {
  it(`${RUNS} headers: verify, safeVerify, verifyAsync and safeVerifyAsync only ever refuse with WebhookVerificationError, and agree`, async () => {
    const codes = new Map<string, number>();
    // Refusals are the common case here: their stack traces would cost most of the run and assert nothing.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    for (let seed = 0; seed < RUNS / BATCH; seed++) {
      const values = fc.sample(header, { numRuns: BATCH, seed });
      const asyncOutcomes = await Promise.all(
        values.map(async (value) => [
          await outcomeAsync(() => verifyAsync(BODY, value, SECRET, OPTIONS)),
          await safeVerifyAsync(BODY, value, SECRET, OPTIONS).then((result) => (result.ok ? "ok" : result.error.code)),
        ]),
      );
      values.forEach((value, index) => {
        const sync = outcome(() => verify(BODY, value, SECRET, OPTIONS));
        const safe = safeVerify(BODY, value, SECRET, OPTIONS);
        expect([safe.ok ? "ok" : safe.error.code, ...(asyncOutcomes[index] ?? [])]).toEqual([sync, sync, sync]);
        codes.set(sync, (codes.get(sync) ?? 0) + 1);
      });
    }
    Error.stackTraceLimit = stackTraceLimit;
    // The fuzz reached every branch of the header rules, not only one refusal.
    expect([...codes.keys()].sort(), JSON.stringify([...codes])).toEqual(
      expect.arrayContaining([
        "malformed_header",
        "missing_header",
        "no_supported_signature",
        "ok",
        "signature_mismatch",
        "timestamp_in_future",
        "timestamp_too_old",
      ]),
    );
  }, 300_000);
});
