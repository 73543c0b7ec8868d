import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  startTime: number;
  endTime: number;
}

export interface SelfTimes {
  name: string;
  /** Self time per function ("name file:line"), in µs; idle time excluded. */
  micros: Map<string, number>;
  busyMicros: number;
}

function selfTimes(name: string, profile: CpuProfile): SelfTimes {
  const interval = (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length);
  const micros = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)") continue;
    const key = `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
    micros.set(key, (micros.get(key) ?? 0) + (node.hitCount ?? 0) * interval);
  }
  return { name, micros, busyMicros: [...micros.values()].reduce((sum, value) => sum + value, 0) };
}

/** The busiest `.cpuprofile` in a directory: the main thread's (tsx's loader thread writes one too, mostly idle). */
export function busiestProfile(directory: string): SelfTimes {
  const profiles = readdirSync(directory)
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => selfTimes(name, JSON.parse(readFileSync(join(directory, name), "utf8")) as CpuProfile))
    .sort((a, b) => b.busyMicros - a.busyMicros);
  const chosen = profiles[0];
  if (chosen === undefined) throw new Error(`no .cpuprofile in ${directory}`);
  return chosen;
}
