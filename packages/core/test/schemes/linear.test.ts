import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WebhookVerificationError } from "../../src/entries";
import { linear } from "../../src/entries/schemes";

const NOW = 1_800_000_000;
const at = { now: () => NOW * 1000 };
const SECRET = "linear signing secret";
const NUM_RUNS = 100;

async function codeOf(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    expect(error.status).toBe(400);
    return error.code;
  }
}

// Linear's time is the body's own `webhookTimestamp` (ms), so its bodies are JSON objects carrying one.
const bodyOf = (text: string, milliseconds: number) =>
  JSON.stringify({ type: "Issue", action: "update", data: { title: text }, webhookTimestamp: milliseconds });

describe("linear", () => {
  it("verifies every body it signed whose webhookTimestamp is within Linear's one-minute window, sync and async", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.integer({ min: -59_000, max: 59_000 }), async (text, skew) => {
        const body = bodyOf(text, NOW * 1000 + skew);
        const headers = linear().sign(body, SECRET);
        expect(linear().verify(body, headers, SECRET, at).secretIndex).toBe(0);
        expect((await linear().verifyAsync(body, headers, ["other", SECRET], at)).secretIndex).toBe(1);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("refuses a signed body whose webhookTimestamp is outside the window", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 301, max: 10 ** 6 }), fc.boolean(), async (seconds, ahead) => {
        const body = bodyOf("x", (NOW + (ahead ? seconds : -seconds)) * 1000);
        const code = await codeOf(() => linear().verify(body, linear().sign(body, SECRET), SECRET, at));
        expect(code).toBe(ahead ? "timestamp_in_future" : "timestamp_too_old");
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("refuses any change to the signed body with signature_mismatch, or invalid_payload where it is no longer timed JSON", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.nat(), fc.integer({ min: 1, max: 255 }), async (text, place, flip) => {
        const body = new TextEncoder().encode(bodyOf(text, NOW * 1000));
        const headers = linear().sign(body, SECRET);
        const changed = body.slice();
        const index = place % changed.length;
        changed[index] = (changed[index] as number) ^ flip;
        for (const run of [
          () => linear().verify(changed, headers, SECRET, at),
          () => linear().verifyAsync(changed, headers, SECRET, at),
        ]) {
          expect(["signature_mismatch", "invalid_payload"]).toContain(await codeOf(run));
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("answers any value of its signature header, and any body, with a typed 400, never a crash", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), async (value, body) => {
        const headers = { "linear-signature": value };
        expect(await codeOf(() => linear().verify(body, headers, SECRET, at))).toBeDefined();
        expect(await codeOf(() => linear().verifyAsync(body, headers, SECRET, at))).toBeDefined();
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("types `<type>.<action>` only from words, so no body reaches another type's handlers", () => {
    expect(linear().typeOf({ type: "Issue", action: "create" }, {})).toBe("Issue.create");
    expect(linear().typeOf({ type: "Issue", action: "create.evil" }, {})).toBe("Issue");
    expect(linear().typeOf({ type: "Issue.create", action: "x" }, {})).toBeUndefined();
  });
});
