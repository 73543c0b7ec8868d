// What a soak run came to, from what the sender saw acknowledged and what the workers' handlers did.
import type { Kill } from "./cast";

export interface Acknowledged {
  message: string;
  type: string;
  /** When the balancer first saw the event (its first attempt), Unix ms. */
  firstSeenAt: number;
}

/**
 * One line of a worker's effects log: `ran <event> <message> <status> <pid> <ms>`, or `stale <event> - <pid> <ms>` and
 * `duplicate <event> - <pid> <ms>` for a job that completed without its handlers (judged stale, or already handled).
 */
export interface Effect {
  kind: "ran" | "stale" | "duplicate";
  event: string;
  status: string;
  pid: number;
  at: number;
}

export function parseEffects(text: string): Effect[] {
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const parts = line.split(" ");
      if (parts[0] === "ran") {
        const [, event, , status, pid, at] = parts;
        return { kind: "ran", event: event as string, status: status as string, pid: Number(pid), at: Number(at) };
      }
      const [kind, event, , pid, at] = parts;
      return {
        kind: kind === "duplicate" ? "duplicate" : "stale",
        event: event as string,
        status: "",
        pid: Number(pid),
        at: Number(at),
      };
    });
}

/** What the effects mode finds committed: the app's table, and the follow-ups the emulator created. */
export interface AppEffects {
  /** Per event, its rows in the app's table. */
  rows: Map<string, number>;
  /** Per message, the status its last committed row wrote. */
  lastStatus: Map<string, string>;
  /** Per event, the follow-up messages the emulator created for it. */
  followUps: Map<string, number>;
}

export interface EffectsVerdict {
  rows: number;
  /** Events with more than one row: must be none. */
  rowsTwice: number;
  followUps: number;
  /** Events for which the emulator created more than one follow-up: must be none. */
  followUpsTwice: number;
  /** `message.failed` events whose row committed without any follow-up created: must be none. */
  followUpsMissing: number;
}

export interface Verdict {
  acknowledged: number;
  /** Acknowledged, yet neither handled (with effects: its row committed) nor found stale. */
  lost: string[];
  /** Events whose handlers ran twice with no worker killed in between: must be none. */
  doubled: string[];
  /** Events run again because their worker was SIGKILLed after the handler ran, before the job completed. */
  rerunsAfterKill: number;
  stale: number;
  /** Messages whose last handled status is not their final one. */
  wrongFinalStatus: string[];
  latencyMs: { p50: number; p99: number };
  /** Kills asked for by handlers at a chosen point of their run (effects mode). */
  aimedKills: number;
  effects?: EffectsVerdict;
}

const FINAL = new Set(["message.delivered", "message.failed"]);
/** `messageStatusOrder`'s positions, by status. */
const STATUS_POSITION: Record<string, number> = { queued: 1, sent: 2, delivered: 3, failed: 3 };

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number);
}

export function judge(
  acknowledged: Map<string, Acknowledged>,
  effects: Effect[],
  kills: Kill[],
  app?: AppEffects,
): Verdict {
  const runs = new Map<string, Effect[]>();
  const stale = new Set<string>();
  // Completed without their handlers on a rerun: the store had them handled (a run whose effect is logged) or stale.
  const settled = new Set<string>();
  for (const effect of effects) {
    if (effect.kind === "ran") runs.set(effect.event, [...(runs.get(effect.event) ?? []), effect]);
    else if (effect.kind === "stale") stale.add(effect.event);
    else settled.add(effect.event);
  }
  // The processes that run handlers: workers, and with the `request` engine, receivers.
  const killedAt = new Map(kills.map((kill) => [kill.pid, kill.at]));
  const doubled: string[] = [];
  let rerunsAfterKill = 0;
  for (const [event, ran] of runs) {
    const sorted = ran.sort((a, b) => a.at - b.at);
    for (const earlier of sorted.slice(0, -1)) {
      const killed = killedAt.get(earlier.pid);
      if (killed !== undefined && killed >= earlier.at) rerunsAfterKill++;
      else doubled.push(event);
    }
  }
  // With effects, the database says it: an event is handled if its row committed (a run alone may have rolled back),
  // and stale if a row of its message at or above its position committed (a stale verdict's note may die with its
  // process, and a later copy is then answered as a duplicate).
  const lost = [...acknowledged].flatMap(([event, { message, type }]) => {
    if (!app) return runs.has(event) || stale.has(event) || settled.has(event) ? [] : [event];
    const reached = STATUS_POSITION[app.lastStatus.get(message) ?? ""] ?? 0;
    const position = STATUS_POSITION[type.slice("message.".length)];
    return app.rows.has(event) || (position !== undefined && reached >= position) ? [] : [event];
  });
  const lastStatus = new Map<string, Effect>();
  const finalType = new Map<string, string>();
  for (const [event, { message, type }] of acknowledged) {
    if (FINAL.has(type)) finalType.set(message, type.slice("message.".length));
    const last = runs.get(event)?.at(-1);
    const current = lastStatus.get(message);
    if (last && (!current || current.at <= last.at)) lastStatus.set(message, last);
  }
  const wrongFinalStatus = [...finalType].filter(
    ([message, status]) => (app ? app.lastStatus.get(message) : lastStatus.get(message)?.status) !== status,
  );
  const latencies = [...runs]
    .map(([event, ran]) => (ran[0] as Effect).at - (acknowledged.get(event)?.firstSeenAt ?? Number.NaN))
    .filter((ms) => Number.isFinite(ms))
    .sort((a, b) => a - b);
  return {
    acknowledged: acknowledged.size,
    lost,
    doubled,
    rerunsAfterKill,
    stale: stale.size,
    wrongFinalStatus: wrongFinalStatus.map(([message]) => message),
    latencyMs: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) },
    aimedKills: kills.filter((kill) => kill.aimed).length,
    ...(app ? { effects: judgeEffects(acknowledged, app) } : {}),
  };
}

function judgeEffects(acknowledged: Map<string, Acknowledged>, app: AppEffects): EffectsVerdict {
  const sum = (counts: Map<string, number>) => [...counts.values()].reduce((total, n) => total + n, 0);
  const twice = (counts: Map<string, number>) => [...counts.values()].filter((n) => n > 1).length;
  const failedWithRow = [...acknowledged].filter(
    ([event, { type }]) => type === "message.failed" && app.rows.has(event),
  );
  return {
    rows: sum(app.rows),
    rowsTwice: twice(app.rows),
    followUps: sum(app.followUps),
    followUpsTwice: twice(app.followUps),
    followUpsMissing: failedWithRow.filter(([event]) => !app.followUps.has(event)).length,
  };
}

/** What fails a run: anything lost or at the wrong status; with effects, any applied twice, or no rerun to show. */
export function failures(verdict: Verdict): string[] {
  const found: string[] = [];
  if (verdict.lost.length > 0) found.push(`${verdict.lost.length} lost`);
  if (verdict.wrongFinalStatus.length > 0) found.push(`${verdict.wrongFinalStatus.length} at the wrong final status`);
  const { effects } = verdict;
  if (!effects) {
    if (verdict.doubled.length > 0) found.push(`${verdict.doubled.length} run twice with no kill`);
    return found;
  }
  if (effects.rowsTwice > 0) found.push(`${effects.rowsTwice} events with more than one row`);
  if (effects.followUpsTwice > 0) found.push(`${effects.followUpsTwice} events with more than one follow-up`);
  if (effects.followUpsMissing > 0) found.push(`${effects.followUpsMissing} failed events with no follow-up`);
  if (verdict.rerunsAfterKill === 0) found.push("no rerun after a kill: nothing shows that reruns did no harm");
  return found;
}
