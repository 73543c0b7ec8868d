/**
 * Reads callgrind dumps: event totals, and each function's own (exclusive) instruction count. V8's compiled
 * JavaScript has no symbols for valgrind, which names it by address (`0x0000…`); run node with --perf-basic-prof
 * and `jitNames` maps those addresses to V8's names (`JS:*handle file:///…/index.js:576:15`) through the
 * /tmp/perf-<pid>.map file node writes.
 */
import { readFileSync } from "node:fs";

export type Counts = Record<string, number>;

/** The dump's event totals, by event name (Ir, and with --cache-sim I1mr, D1mr, D1mw…). */
export function dumpTotals(text: string): Counts {
  const events = /^events: (.+)$/m.exec(text)?.[1]?.split(" ");
  const totals = /^summary: (.+)$/m.exec(text)?.[1]?.split(" ").map(Number);
  if (!events || !totals) throw new Error("no events or summary line in the callgrind dump");
  return Object.fromEntries(events.map((event, index) => [event, totals[index] ?? 0]));
}

const NAMED = /^(c?fn)=\((\d+)\)(?: (.*))?$/;

/** Own instructions (the first event) per function name; a call's inclusive cost goes to the callee, not here. */
export function selfInstructions(text: string): Map<string, number> {
  const names = new Map<string, string>();
  const self = new Map<string, number>();
  let current: string | undefined;
  let skipCallCost = false;
  for (const line of text.split("\n")) {
    const named = NAMED.exec(line);
    if (named) {
      const [, kind, id = "", name] = named;
      if (name !== undefined) names.set(id, name);
      if (kind === "fn") current = names.get(id);
      continue;
    }
    if (line.startsWith("calls=")) {
      skipCallCost = true;
      continue;
    }
    if (!/^[0-9+\-*]/.test(line)) continue;
    if (skipCallCost) {
      skipCallCost = false;
      continue;
    }
    const cost = Number(line.split(" ")[1] ?? 0);
    if (current !== undefined && cost > 0) self.set(current, (self.get(current) ?? 0) + cost);
  }
  return self;
}

/** Maps valgrind's `0x…` names of JIT code to V8's names; other names, and unknown addresses, pass unchanged. */
export function jitNames(perfMapPath: string): (name: string) => string {
  const ranges = readFileSync(perfMapPath, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [start = "0", size = "0", ...name] = line.split(" ");
      return { start: Number.parseInt(start, 16), end: Number.parseInt(start, 16) + Number.parseInt(size, 16), name };
    })
    .sort((a, b) => a.start - b.start);
  return (name) => {
    if (!/^0x[0-9a-f]+$/i.test(name)) return name;
    const address = Number.parseInt(name, 16);
    let low = 0;
    let high = ranges.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const range = ranges[middle];
      if (range === undefined) break;
      if (address < range.start) high = middle - 1;
      else if (address >= range.end) low = middle + 1;
      else return range.name.join(" ");
    }
    return name;
  };
}

/** Own instructions per request, by function, with JIT names resolved and source positions dropped. */
export function functionsPerRequest(dumpText: string, rename: (name: string) => string, requests: number) {
  const merged = new Map<string, number>();
  for (const [name, instructions] of selfInstructions(dumpText)) {
    // One function compiled twice, or at two tiers (`*` optimised, `^` baseline…), is one row.
    const key = rename(name)
      .replace(/^JS:[*~^+]/, "JS:")
      .replace(/:\d+:\d+$/, "");
    merged.set(key, (merged.get(key) ?? 0) + instructions / requests);
  }
  return merged;
}
