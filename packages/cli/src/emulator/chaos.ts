import type { MessageEventType } from "../events";

/**
 * The service's realities, on demand: each is off at its zero.
 *
 * @example
 * ```ts
 * import { type ChaosSettings, startEmulator } from "@tidings/cli";
 *
 * // Every event sent twice, each after 0 to 2 s; the seed the failing run logged, to replay it.
 * const chaos: Partial<ChaosSettings> = { duplicates: 1, delayMs: [0, 2_000], seed: 1_234 };
 * const webhookUrl = "http://127.0.0.1:3000/webhooks";
 * const emulator = await startEmulator({ webhookUrl, secret: "whsec_local_test", chaos });
 * console.log(emulator.chaos); // the settings in effect, defaults filled in
 * ```
 */
export interface ChaosSettings {
  /** Probability that a delivered event is sent a second time. */
  duplicates: number;
  /** Probability that a message's events are reordered: two neighbouring events, picked at random, are swapped. */
  reorder: number;
  /** Each event waits a random time in [min, max] ms before its first attempt. */
  delayMs: readonly [min: number, max: number];
  /** Each event is signed with the sender's clock off by a random amount in [−this, +this] seconds. */
  clockSkewS: number;
  /** The same seed gives every message the same chaos (by its order of arrival). */
  seed: number;
}

export const NO_CHAOS: Readonly<ChaosSettings> = { duplicates: 0, reorder: 0, delayMs: [0, 0], clockSkewS: 0, seed: 0 };

/** What chaos does to one event of a message. */
export interface EventChaos {
  type: MessageEventType;
  delayMs: number;
  duplicate: boolean;
  skewS: number;
}

/** mulberry32: small, fast, and the same numbers on every platform for a given seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function hasChaos(settings: ChaosSettings): boolean {
  return settings.duplicates > 0 || settings.reorder > 0 || settings.delayMs[1] > 0 || settings.clockSkewS > 0;
}

/**
 * The chaos for the `messageIndex`-th message (0-based, in order of arrival): drawn from its own stream of the seed,
 * so it does not depend on how deliveries of other messages interleave.
 */
export function planChaos(
  settings: ChaosSettings,
  messageIndex: number,
  types: readonly MessageEventType[],
): EventChaos[] {
  const random = seededRandom(Math.imul(settings.seed ^ 0x9e3779b9, 0x85ebca6b) + messageIndex);
  const order = [...types];
  // One pair of neighbours swapped, never a chain of swaps that would carry one event across the sequence.
  if (order.length > 1 && random() < settings.reorder) {
    const i = Math.floor(random() * (order.length - 1));
    [order[i], order[i + 1]] = [order[i + 1] as MessageEventType, order[i] as MessageEventType];
  }
  const [min, max] = settings.delayMs;
  return order.map((type) => ({
    type,
    delayMs: Math.round(min + random() * (max - min)),
    duplicate: random() < settings.duplicates,
    skewS: Math.round((random() * 2 - 1) * settings.clockSkewS) || 0, // never -0
  }));
}

const signed = (value: number) => (value >= 0 ? `+${value}` : String(value));
const short = (type: MessageEventType) => type.slice("message.".length);

/** One log line's worth: `order sent, queued, delivered; twice: sent; delay 12/40/3 ms; clock skew +30/-12/+4 s`. */
export function describeChaos(plan: readonly EventChaos[], types: readonly MessageEventType[]): string {
  const parts: string[] = [];
  if (plan.some((event, i) => event.type !== types[i]))
    parts.push(`order ${plan.map((event) => short(event.type)).join(", ")}`);
  const twice = plan.filter((event) => event.duplicate);
  if (twice.length > 0) parts.push(`twice: ${twice.map((event) => short(event.type)).join(", ")}`);
  if (plan.some((event) => event.delayMs > 0)) parts.push(`delay ${plan.map((event) => event.delayMs).join("/")} ms`);
  if (plan.some((event) => event.skewS !== 0))
    parts.push(`clock skew ${plan.map((event) => signed(event.skewS)).join("/")} s`);
  return parts.length === 0 ? "none" : parts.join("; ");
}

const isProbability = (value: unknown) => typeof value === "number" && value >= 0 && value <= 1;
const isWhole = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;

/** Fills the defaults (no chaos, a random seed) and checks each setting; a bad one is a TypeError naming it. */
export function chaosSettings(given: Partial<ChaosSettings> = {}): ChaosSettings {
  const settings: ChaosSettings = {
    ...NO_CHAOS,
    seed: Math.floor(Math.random() * 1_000_000),
    ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)),
  };
  if (!isProbability(settings.duplicates)) throw new TypeError("chaos.duplicates must be a probability, 0 to 1");
  if (!isProbability(settings.reorder)) throw new TypeError("chaos.reorder must be a probability, 0 to 1");
  const [min, max] = Array.isArray(settings.delayMs) ? settings.delayMs : [];
  if (!isWhole(min) || !isWhole(max) || (min as number) > (max as number)) {
    throw new TypeError("chaos.delayMs must be [min, max]: whole milliseconds, min ≤ max");
  }
  if (!isWhole(settings.clockSkewS)) throw new TypeError("chaos.clockSkewS must be whole seconds ≥ 0");
  if (!isWhole(settings.seed)) throw new TypeError("chaos.seed must be a whole number ≥ 0");
  return settings;
}
