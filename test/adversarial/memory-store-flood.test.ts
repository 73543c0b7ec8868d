import { createReceiver, DEFAULTS, MemoryStore, sign } from "@tidings/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const SECRET = "whsec_flood";
const TOLERANCE_MS = 300_000;
const HANDLER_TIMEOUT_MS = 10;

// The store and the Receiver read the test's clock (`now`); the handlers' time limit runs on vitest's fake timers.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("MemoryStore flood through a Receiver", () => {
  it("keeps every replay inside the tolerance a duplicate and every claim in flight held, refusing with 503 when full", async () => {
    const clock = { ms: 1_800_000_000_000 };
    const now = () => clock.ms;
    const warnings: unknown[] = [];
    const store = new MemoryStore({
      maxEntries: 2000,
      now,
      logger: { error() {}, warn: (line) => warnings.push(line) },
    });
    const receiver = createReceiver({
      secret: SECRET,
      store,
      now,
      logger: { error() {} },
      handlerTimeoutMs: HANDLER_TIMEOUT_MS,
    });
    const runs = new Map<string, number>();
    receiver.on("message.sent", (event) => {
      const id = String(event.id);
      runs.set(id, (runs.get(id) ?? 0) + 1);
      // A few handlers stay in flight for the whole flood: their claims must never be evicted.
      if (id.endsWith("00")) return new Promise(() => {});
    });
    const deliveries: { id: string; rawBody: Uint8Array; headers: Record<string, string>; at: number }[] = [];
    const codes = new Map<string, number>();
    const stuck: { rawBody: Uint8Array; headers: Record<string, string>; at: number }[] = [];
    for (let n = 0; n < 12_000; n++) {
      clock.ms += 100; // 10 deliveries/s: 3,000 inside one tolerance window, more than the store holds
      const id = `evt_${n}`;
      const rawBody = new TextEncoder().encode(JSON.stringify({ id, type: "message.sent" }));
      const headers = { "service-signature": sign(rawBody, SECRET, { timestamp: Math.floor(clock.ms / 1000) }) };
      const answering = receiver.receive({ rawBody, headers });
      if (id.endsWith("00")) await vi.advanceTimersByTimeAsync(HANDLER_TIMEOUT_MS);
      const result = await answering;
      const code = (JSON.parse(result.body) as { error?: { code: string } }).error?.code ?? String(result.status);
      codes.set(code, (codes.get(code) ?? 0) + 1);
      if (code === "200") deliveries.push({ id, rawBody, headers, at: clock.ms });
      if (code === "handler_timeout") stuck.push({ rawBody, headers, at: clock.ms });
      // Every claim still inside its lease (60 s) is held, however full the store: a replay gets 409.
      for (const request of stuck.filter(({ at }) => clock.ms - at < DEFAULTS.leaseMs).slice(-3)) {
        expect(JSON.parse((await receiver.receive(request)).body).error.code).toBe("delivery_in_progress");
      }
      // An attacker replays an earlier accepted request that is still inside the tolerance.
      const earlier = deliveries[Math.floor(Math.random() * deliveries.length)];
      if (earlier && clock.ms - earlier.at < TOLERANCE_MS) {
        const replay = await receiver.receive(earlier);
        expect(JSON.parse(replay.body), earlier.id).toEqual({ received: true, duplicate: true });
      }
    }
    for (const [id, count] of runs) expect(count, id).toBe(1);
    expect(stuck.length).toBeGreaterThan(10);
    expect(codes.get("store_full")).toBeGreaterThan(100);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.length).toBeLessThan((codes.get("store_full") ?? 0) / 10);
    expect(store.size).toBeLessThanOrEqual(2000);
  });
});
