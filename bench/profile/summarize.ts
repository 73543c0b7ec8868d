/**
 * Self time per function from the busiest `.cpuprofile` in a directory (the main thread's: tsx's loader thread
 * writes one too, mostly idle): where the time goes.
 *   npm run profile:summary --workspace @tidings/bench   (= node --import tsx/esm profile/summarize.ts .profiles)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
}

function selfTimes(profile: CpuProfile): Map<string, number> {
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.split("/").slice(-2).join("/");
    const key = `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + (node.hitCount ?? 0));
  }
  return byFunction;
}

const busy = (times: Map<string, number>) =>
  [...times].reduce((sum, [key, hits]) => (key.startsWith("(idle)") ? sum : sum + hits), 0);

const directory = process.argv[2] ?? ".profiles";
const profiles = readdirSync(directory)
  .filter((name) => name.endsWith(".cpuprofile"))
  .map((name) => ({ name, times: selfTimes(JSON.parse(readFileSync(join(directory, name), "utf8")) as CpuProfile) }))
  .sort((a, b) => busy(b.times) - busy(a.times));
const chosen = profiles[0];
if (chosen === undefined) throw new Error(`no .cpuprofile in ${directory}`);
const total = busy(chosen.times);
console.log(`${chosen.name}: ${total} busy samples (idle excluded)`);
for (const [key, hits] of [...chosen.times].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 30))) {
  if (!key.startsWith("(idle)")) console.log(`${((100 * hits) / total).toFixed(1).padStart(5)}%  ${key}`);
}
