import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { afterFakeTime, capped, changesOf, until } from "./wait";

describe("until", () => {
  it("resolves with the first truthy answer, asked again at each turn of the event loop", async () => {
    let turns = 0;
    const counting = () => {
      turns++;
      setImmediate(counting);
    };
    setImmediate(counting);
    let asked = 0;
    expect(await until(() => ++asked === 5 && "five", "the fifth question")).toBe("five");
    expect(turns).toBeGreaterThanOrEqual(4);
  });

  it("fails with what it waited for and the last answer, once past its cap", async () => {
    await expect(until(() => 0, "a count", { withinMs: 0 })).rejects.toThrow(
      "gave up after 0 ms waiting for a count (last answer: 0)",
    );
  });

  it("waits on the real event loop while a test's fake timers are installed", async () => {
    vi.useFakeTimers();
    try {
      let ready = false;
      const waiting = until(() => ready, "ready");
      ready = true;
      expect(await waiting).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("with changesOf, asks again when the file changes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tidings-wait-"));
    const log = join(dir, "log.txt");
    try {
      let lines = 0;
      const waiting = until(() => lines >= 2, "two lines", { wake: changesOf(log) });
      for (const line of ["a", "b"]) {
        lines++;
        appendFileSync(log, `${line}\n`);
      }
      expect(await waiting).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("capped", () => {
  it("settles as the promise does, or fails with what it waited for", async () => {
    expect(await capped(Promise.resolve(7), "seven")).toBe(7);
    await expect(capped(new Promise(() => {}), () => "nothing", { withinMs: 1 })).rejects.toThrow(
      "gave up after 1 ms waiting for nothing",
    );
  });
});

describe("afterFakeTime", () => {
  it("reaches a time limit at once, and leaves the real timers back", async () => {
    const timedOut = afterFakeTime(60_000, () => new Promise((resolve) => setTimeout(() => resolve("late"), 60_000)));
    expect(await timedOut).toBe("late");
    expect(vi.isFakeTimers()).toBe(false);
  });
});
