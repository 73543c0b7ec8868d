import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createReceiver, type DeliveryOutcome, type ReceiveErrorInfo, sign } from "../src/entries";
import { event } from "./receiver-fixtures";

const T = 1_900_000_000_000;
const OLD = "whsec_old";
const NEW = "whsec_new";
const quiet = { error() {}, warn() {} };

/** A Receiver rotating from OLD (retired at T) to NEW, with every channel the app hears on recorded. */
function rotating(options: { endpoint?: string; nowMs?: number } = {}) {
  const clock = { ms: options.nowMs ?? T + 1000 };
  const heard = { errors: [] as ReceiveErrorInfo[], outcomes: [] as DeliveryOutcome[], warnings: [] as unknown[] };
  const secret = [{ value: OLD, notAfter: new Date(T) }, NEW];
  const receiver = createReceiver({
    secret: options.endpoint === undefined ? secret : () => ({ secret, endpoint: options.endpoint }),
    now: () => clock.ms,
    logger: { error() {}, warn: (line) => heard.warnings.push(line) },
  })
    .onError((_error, info) => {
      heard.errors.push(info);
    })
    .onOutcome((outcome) => {
      heard.outcomes.push(outcome);
    });
  const send = (signer: string, id: string, signedAtMs = clock.ms) => {
    const rawBody = new TextEncoder().encode(JSON.stringify(event({ id })));
    const header = sign(rawBody, signer, { timestamp: Math.floor(signedAtMs / 1000) });
    return receiver.receive({ rawBody, headers: { "service-signature": header } });
  };
  return { clock, receiver, send, heard };
}

describe("a delivery signed with a retired secret (past its notAfter)", () => {
  it("is answered exactly as a wrong secret is, while onError, the log and the outcome name the retired secret", async () => {
    const { send, heard } = rotating({ endpoint: "acct_42" });
    const retired = await send(OLD, "evt_1");
    const wrong = await send("whsec_wrong", "evt_2");
    expect(retired).toEqual(wrong);
    expect(retired.status).toBe(400);
    expect(heard.errors.map((info) => [info.code, info.details])).toEqual([
      ["signature_mismatch", { secretsConfigured: 2, secretsExpired: 1, retiredSecretIndex: 0 }],
      ["signature_mismatch", { secretsConfigured: 2, secretsExpired: 1 }],
    ]);
    expect(heard.outcomes.map((outcome) => [outcome.code, outcome.endpoint, outcome.retiredSecretIndex])).toEqual([
      ["signature_mismatch", "acct_42", 0],
      ["signature_mismatch", "acct_42", undefined],
    ]);
    expect(heard.warnings).toEqual([
      expect.objectContaining({ code: "retired_secret", secretIndex: 0, endpoint: "acct_42" }),
    ]);
    expect(JSON.stringify(heard.warnings)).not.toContain(OLD);
  });

  it("is logged once per endpoint, not once per delivery: the sender retries", async () => {
    const { send, heard } = rotating();
    for (let n = 0; n < 5; n++) await send(OLD, `evt_${n}`);
    expect(heard.warnings).toHaveLength(1);
    expect(heard.errors.map((info) => info.details?.retiredSecretIndex)).toEqual([0, 0, 0, 0, 0]);
  });

  it("is not flagged when it was signed outside the time window: an old capture replayed, not a sender behind", async () => {
    const { send, heard } = rotating({ nowMs: T + 400_000 });
    const replayed = await send(OLD, "evt_1", T - 1000);
    expect(replayed.code).toBe("signature_mismatch");
    expect(heard.errors[0]?.details).toEqual({ secretsConfigured: 2, secretsExpired: 1 });
    expect(heard.outcomes[0]?.retiredSecretIndex).toBeUndefined();
    expect(heard.warnings).toEqual([]);
  });

  it("is checked only after the active secrets failed: a delivery signed with the new secret is accepted as ever", async () => {
    const { send, heard } = rotating();
    expect((await send(NEW, "evt_1")).status).toBe(200);
    expect(heard.outcomes[0]).toMatchObject({ code: "accepted", retiredSecretIndex: undefined });
  });

  it("property: the sender's answer never depends on whether the secret was retired or wrong", async () => {
    const secretArb = fc.record({
      value: fc.constantFrom("whsec_1", "whsec_2", "whsec_3"),
      notAfter: fc.option(fc.integer({ min: T - 120_000, max: T + 120_000 }), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(secretArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom("whsec_1", "whsec_2", "whsec_3", "whsec_9"),
        fc.integer({ min: T - 120_000, max: T + 120_000 }),
        fc.integer({ min: -120, max: 120 }),
        fc.string(),
        async (secrets, signer, nowMs, skewSeconds, id) => {
          const errors: ReceiveErrorInfo[] = [];
          const receiver = createReceiver({
            secret: secrets,
            now: () => nowMs,
            toleranceSeconds: 60,
            logger: quiet,
          }).onError((_error, info) => {
            errors.push(info);
          });
          const rawBody = new TextEncoder().encode(JSON.stringify(event({ id })));
          const timestamp = Math.floor(nowMs / 1000) + skewSeconds;
          const answer = (secret: string) =>
            receiver.receive({ rawBody, headers: { "service-signature": sign(rawBody, secret, { timestamp }) } });
          const result = await answer(signer);
          const active = secrets
            .filter((s) => s.notAfter === undefined || nowMs < s.notAfter)
            .map((s): string => s.value);
          const inWindow = Math.abs(skewSeconds) <= 60;
          if (!active.includes(signer)) {
            expect(result).toEqual(await answer("whsec_wrong"));
            const firstRetired = secrets.findIndex((s) => s.value === signer);
            const expected = firstRetired === -1 || !inWindow ? undefined : firstRetired;
            expect(errors[0]?.details?.retiredSecretIndex).toBe(expected);
          } else {
            expect(errors.every((info) => info.details?.retiredSecretIndex === undefined)).toBe(true);
          }
          expect(result.status).toBe(active.includes(signer) && inWindow ? 200 : 400);
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);
});
