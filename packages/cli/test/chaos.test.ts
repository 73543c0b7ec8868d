import { parseSignatureHeader } from "@tidings/core/schemes";
import { afterEach, describe, expect, it } from "vitest";
import { chaosSettings, planChaos } from "../src/emulator/chaos";
import { type ChaosSettings, type Emulator, startEmulator, TEST_KEY_PREFIX } from "../src/index";
import { SECRET, startReceiver } from "./helpers";

const TYPES = ["message.queued", "message.sent", "message.delivered"] as const;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const settings = (given: Partial<ChaosSettings>) => chaosSettings({ seed: 7, ...given });

async function createMessages(emulator: Emulator, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${emulator.url}/v3/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_KEY_PREFIX}chaos` },
      body: new URLSearchParams({ channel: "sms", to: "+15551234567", body: `message ${i}` }),
    });
    ids.push(((await response.json()) as { id: string }).id);
  }
  return ids;
}

/** Runs `count` messages through an emulator with this chaos into a real Receiver; returns the log and what arrived. */
async function chaosRun(chaos: Partial<ChaosSettings>, count: number) {
  const signedAt: number[] = [];
  const receiver = await startReceiver({
    intercept: (request) => {
      signedAt.push(parseSignatureHeader(String(request.headers["service-signature"])).timestamp);
      return false;
    },
  });
  const log: string[] = [];
  const emulator = await startEmulator({
    webhookUrl: receiver.url,
    secret: SECRET,
    retry: { baseDelayMs: 1 },
    chaos,
    log: (line) => log.push(line),
  });
  cleanups.push(
    () => receiver.close(),
    () => emulator.close(),
  );
  const ids = await createMessages(emulator, count);
  await emulator.idle();
  // Message ids are random: the chaos lines, with the id replaced by the message's number, must be reproducible.
  const chaosLines = log
    .filter((line) => line.includes(" chaos: "))
    .map((line) => line.replace(/^msg_\w+/, (id) => `#${ids.indexOf(id)}`));
  return { receiver, log, ids, chaosLines, signedAt };
}

describe("chaos plans", () => {
  it("are the same for the same seed and message number, and differ for another seed", () => {
    const chaos = settings({ duplicates: 0.5, reorder: 0.5, delayMs: [0, 100], clockSkewS: 60 });
    const plans = (seed: number) => [0, 1, 2, 3].map((n) => planChaos({ ...chaos, seed }, n, TYPES));
    expect(plans(7)).toEqual(plans(7));
    expect(plans(8)).not.toEqual(plans(7));
  });

  it("reorder: two neighbouring events swapped, never an event carried further", () => {
    const neighbours = new Set<string>();
    for (let n = 0; n < 200; n++) {
      const order = planChaos(settings({ reorder: 1 }), n, TYPES).map((event) => event.type);
      const moved = order.flatMap((type, i) => (type === TYPES[i] ? [] : [i]));
      expect(moved).toHaveLength(2);
      expect((moved[1] as number) - (moved[0] as number)).toBe(1);
      neighbours.add(moved.join(","));
    }
    expect(neighbours).toEqual(new Set(["0,1", "1,2"]));
  });

  it("keep every event, stay within the bounds, and do nothing at zero", () => {
    for (let n = 0; n < 50; n++) {
      const plan = planChaos(settings({ reorder: 1, delayMs: [10, 20], clockSkewS: 30, duplicates: 1 }), n, TYPES);
      expect(plan.map((event) => event.type).sort()).toEqual([...TYPES].sort());
      expect(plan.map((event) => event.type)).not.toEqual(TYPES);
      for (const event of plan) {
        expect(event.delayMs).toBeGreaterThanOrEqual(10);
        expect(event.delayMs).toBeLessThanOrEqual(20);
        expect(Math.abs(event.skewS)).toBeLessThanOrEqual(30);
        expect(event.duplicate).toBe(true);
      }
      expect(planChaos(settings({}), n, TYPES)).toEqual(
        TYPES.map((type) => ({ type, delayMs: 0, duplicate: false, skewS: 0 })),
      );
    }
  });

  it("refuse settings out of range, naming the setting", () => {
    expect(() => chaosSettings({ duplicates: 1.5 })).toThrow(/chaos\.duplicates/);
    expect(() => chaosSettings({ reorder: -0.1 })).toThrow(/chaos\.reorder/);
    expect(() => chaosSettings({ delayMs: [50, 10] })).toThrow(/chaos\.delayMs/);
    expect(() => chaosSettings({ clockSkewS: 1.5 })).toThrow(/chaos\.clockSkewS/);
    expect(() => chaosSettings({ seed: -1 })).toThrow(/chaos\.seed/);
  });
});

describe("the emulator under chaos", () => {
  it("sends each delivered event twice with duplicates 1, and a real Receiver handles each once", async () => {
    const { receiver, log, ids } = await chaosRun({ duplicates: 1, seed: 1 }, 2);
    expect(receiver.requests).toBe(12);
    expect(receiver.events).toHaveLength(6);
    expect(log.filter((line) => line.endsWith("sent again (chaos: duplicate): 200"))).toHaveLength(6);
    for (const id of ids) expect(log).toContain(`${id} chaos: twice: queued, sent, delivered`);
  });

  it("logs the same chaos for each message on a rerun with the same seed, and sends in the logged order", async () => {
    const chaos = { duplicates: 0.3, reorder: 0.5, delayMs: [0, 5] as const, clockSkewS: 100, seed: 42 };
    const first = await chaosRun(chaos, 6);
    const second = await chaosRun(chaos, 6);
    expect(first.chaosLines).toHaveLength(6);
    expect(second.chaosLines).toEqual(first.chaosLines);
    expect(first.chaosLines.some((line) => line.includes("order "))).toBe(true);
    for (const [n, id] of first.ids.entries()) {
      const order = /order ([a-z, ]+)/.exec(first.chaosLines[n] ?? "")?.[1] ?? "queued, sent, delivered";
      const arrived = first.receiver.events.filter((event) => event.data.id === id).map((event) => event.type);
      expect(arrived.join(", ")).toBe(order.replace(/(\w+)/g, "message.$1"));
    }
    // A sender clock off by up to 100 s: every signature is still inside the 5-minute window, and not all on time.
    const now = Date.now() / 1000;
    expect(first.signedAt.every((t) => Math.abs(t - now) <= 110)).toBe(true);
    expect(first.signedAt.some((t) => Math.abs(t - now) >= 5)).toBe(true);
  });
});
