import { describe, expect, it } from "vitest";
import { percentile, summarize } from "../src/send/stats";

describe("send statistics", () => {
  it("uses nearest-rank percentiles", () => {
    const sorted = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(10);
    expect(percentile(sorted, 95)).toBe(19);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeUndefined();
  });

  it("counts 2xx, other answers and connection failures; latency only over answers", () => {
    const summary = summarize([
      { index: 1, eventId: "evt_1", ms: 5, status: 200 },
      { index: 2, eventId: "evt_2", ms: 1, status: 204 },
      { index: 3, eventId: "evt_3", ms: 9, status: 302 },
      { index: 4, eventId: "evt_4", ms: 3, status: 500 },
      { index: 5, eventId: "evt_5", ms: 99, error: "ECONNREFUSED" },
    ]);
    expect(summary).toEqual({ sent: 5, ok: 2, other: 2, failedToConnect: 1, p50: 3, p95: 9, max: 9 });
  });
});
