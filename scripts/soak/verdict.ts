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

export interface Verdict {
  acknowledged: number;
  lost: string[];
  /** Events whose handlers ran twice with no worker killed in between: must be none. */
  doubled: string[];
  /** Events run again because their worker was SIGKILLed after the handler ran, before the job completed. */
  rerunsAfterKill: number;
  stale: number;
  /** Messages whose last handled status is not their final one. */
  wrongFinalStatus: string[];
  latencyMs: { p50: number; p99: number };
}

const FINAL = new Set(["message.delivered", "message.failed"]);

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number);
}

export function judge(acknowledged: Map<string, Acknowledged>, effects: Effect[], kills: Kill[]): Verdict {
  const runs = new Map<string, Effect[]>();
  const stale = new Set<string>();
  // Completed without their handlers on a rerun: the store had them handled (a run whose effect is logged) or stale.
  const settled = new Set<string>();
  for (const effect of effects) {
    if (effect.kind === "ran") runs.set(effect.event, [...(runs.get(effect.event) ?? []), effect]);
    else if (effect.kind === "stale") stale.add(effect.event);
    else settled.add(effect.event);
  }
  const killedAt = new Map(kills.filter((kill) => kill.role === "worker").map((kill) => [kill.pid, kill.at]));
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
  const lost = [...acknowledged.keys()].filter((event) => !runs.has(event) && !stale.has(event) && !settled.has(event));
  const lastStatus = new Map<string, Effect>();
  const finalType = new Map<string, string>();
  for (const [event, { message, type }] of acknowledged) {
    if (FINAL.has(type)) finalType.set(message, type.slice("message.".length));
    const last = runs.get(event)?.at(-1);
    const current = lastStatus.get(message);
    if (last && (!current || current.at <= last.at)) lastStatus.set(message, last);
  }
  const wrongFinalStatus = [...finalType].filter(([message, status]) => lastStatus.get(message)?.status !== status);
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
  };
}
