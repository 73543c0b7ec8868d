import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** The node sampled, per sample; `timeDeltas` holds the µs since the previous sample. */
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** When each route ran, on the profiled process's monotonic clock (µs), and how many requests it answered. */
export type RouteWindows = Record<string, { from: number; to: number; requests: number }[]>;

export interface SelfTimes {
  /** Self time per function ("name file:line"), in µs; idle time excluded. */
  micros: Map<string, number>;
  busyMicros: number;
  /** Requests answered in the sampled time, when known (windows.json). */
  requests?: number;
}

function frameKey(node: ProfileNode): string | undefined {
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === "(idle)") return undefined;
  return `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
}

/** Self times of the samples `keep` accepts (by their timestamp). */
function selfTimes(profile: CpuProfile, keep: (at: number) => boolean = () => true): SelfTimes {
  const keys = new Map(profile.nodes.map((node) => [node.id, frameKey(node)]));
  const micros = new Map<string, number>();
  let busyMicros = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const spent = profile.timeDeltas[i + 1] ?? 0;
    const key = keys.get(profile.samples[i] as number);
    if (key === undefined || !keep(at)) continue;
    micros.set(key, (micros.get(key) ?? 0) + spent);
    busyMicros += spent;
  }
  return { micros, busyMicros };
}

/** The busiest `.cpuprofile` in a directory: the main thread's (tsx's loader thread writes one too, mostly idle). */
function busiestProfile(directory: string): { name: string; profile: CpuProfile; busyMicros: number } {
  const profiles = readdirSync(directory)
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => {
      const profile = JSON.parse(readFileSync(join(directory, name), "utf8")) as CpuProfile;
      return { name, profile, busyMicros: selfTimes(profile).busyMicros };
    })
    .sort((a, b) => b.busyMicros - a.busyMicros);
  const chosen = profiles[0];
  if (chosen === undefined) throw new Error(`no .cpuprofile in ${directory}`);
  return chosen;
}

/** The whole busiest profile of a directory. */
export function profileSelfTimes(directory: string): SelfTimes & { name: string } {
  const { name, profile } = busiestProfile(directory);
  return { name, ...selfTimes(profile) };
}

/** One route's share of a profile whose directory has a windows.json (profile:http with several routes). */
export function routeSelfTimes(directory: string, route: string): SelfTimes {
  const windowsFile = join(directory, "windows.json");
  if (!existsSync(windowsFile)) throw new Error(`${directory} has no windows.json: profile several routes at once`);
  const windows = (JSON.parse(readFileSync(windowsFile, "utf8")) as RouteWindows)[route];
  if (windows === undefined) throw new Error(`${route} was not profiled in ${directory}`);
  const { profile } = busiestProfile(directory);
  const times = selfTimes(profile, (at) => windows.some((window) => at >= window.from && at <= window.to));
  return { ...times, requests: windows.reduce((sum, window) => sum + window.requests, 0) };
}
