import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Deadline, startSharedDeadline } from "../src/ground/shared-deadline";

const TIMEOUTS = [5, 9] as const;

type Step =
  | { kind: "start"; timeout: (typeof TIMEOUTS)[number] }
  | { kind: "clear"; pick: number }
  | { kind: "wait"; ms: number };

// Mostly starts and clears, so buckets fill up and deadlines move within them; a wait now and then turns the lanes.
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("start" as const), timeout: fc.constantFrom(...TIMEOUTS) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("clear" as const), pick: fc.nat() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 12 }) }), weight: 1 },
);

describe("shared body deadlines", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("expire exactly once unless cleared first, whatever deadlines around them start and clear", () => {
    // The lanes' timers and the steps' waits on one fake clock: each run's interleaving is its seed's, on any machine.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const deadlines: { deadline?: Deadline; expiries: number; clearedFirst: boolean }[] = [];
        for (const next of steps) {
          if (next.kind === "start") {
            const entry: (typeof deadlines)[number] = { expiries: 0, clearedFirst: false };
            entry.deadline = startSharedDeadline(next.timeout, () => {
              entry.expiries++;
            });
            deadlines.push(entry);
          } else if (next.kind === "clear" && deadlines.length > 0) {
            // Any deadline: pending, already cleared or already expired.
            const entry = deadlines[next.pick % deadlines.length] as (typeof deadlines)[number];
            if (entry.expiries === 0) entry.clearedFirst = true;
            entry.deadline?.clear();
          } else if (next.kind === "wait") {
            vi.advanceTimersByTime(next.ms);
          }
        }
        // Until every lane has swept its last bucket and stopped ticking.
        vi.runAllTimers();
        expect(vi.getTimerCount()).toBe(0);
        for (const entry of deadlines) expect(entry.expiries).toBe(entry.clearedFirst ? 0 : 1);
      }),
      {
        numRuns: 100,
        // Clearing the first of two moves the second into its place; clearing that one must still find it.
        examples: [
          [
            [
              { kind: "start", timeout: 5 },
              { kind: "start", timeout: 5 },
              { kind: "clear", pick: 0 },
              { kind: "clear", pick: 1 },
            ],
          ],
        ],
      },
    );
  });

  describe("a bucket expiring many deadlines in one tick (fake timers)", () => {
    it.each([2, 3, 4, 8, 32, 1000])("expires all %i, each clearing itself as it expires (as a read does)", (count) => {
      vi.useFakeTimers();
      const expired: number[] = [];
      const deadlines: Deadline[] = [];
      for (let n = 0; n < count; n++) {
        deadlines.push(
          startSharedDeadline(1001, () => {
            expired.push(n);
            deadlines[n]?.clear();
          }),
        );
      }
      vi.advanceTimersByTime(2000);
      expect(expired.sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, n) => n));
    });

    it("expires exactly once every deadline no other expire cleared first, the others never", () => {
      vi.useFakeTimers();
      const count = 64;
      const expiries = Array<number>(count).fill(0);
      const clearedFirst = Array<boolean>(count).fill(false);
      const deadlines: Deadline[] = [];
      for (let n = 0; n < count; n++) {
        deadlines.push(
          startSharedDeadline(1002, () => {
            expiries[n] = (expiries[n] ?? 0) + 1;
            deadlines[n]?.clear();
            // Another deadline of the same bucket, pending or already expired.
            const other = (n * 7 + 3) % count;
            if (expiries[other] === 0) clearedFirst[other] = true;
            deadlines[other]?.clear();
          }),
        );
      }
      vi.advanceTimersByTime(2000);
      expect(clearedFirst.some(Boolean)).toBe(true);
      expect(expiries).toEqual(clearedFirst.map((cleared) => (cleared ? 0 : 1)));
    });

    it("expires a deadline an expire starts in the same lane one full timeout later", () => {
      vi.useFakeTimers();
      let later = 0;
      startSharedDeadline(1003, () => {
        startSharedDeadline(1003, () => {
          later++;
        });
      });
      // Ticks of 126 ms; a bucket expires 9 ticks after it opened.
      vi.advanceTimersByTime(9 * 126);
      expect(later).toBe(0);
      vi.advanceTimersByTime(9 * 126);
      expect(later).toBe(1);
    });
  });
});
