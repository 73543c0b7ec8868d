import type { InstructionSettings } from "../lib/options";
import { type CallgrindChild, quietestWindow, type Window } from "./callgrind-child";

export interface Counted<Side extends string> {
  /** Instructions per request (or job) in each window, by side. */
  windows: Map<Side, number[]>;
  /** With `functions`: own instructions per request (or job) by function, in each side's quietest window. */
  functions?: Map<Side, Map<string, number>>;
}

/**
 * Warms every side up with `run(side, warmupRequests)`, then counts: the sides take turns, one window of
 * `run(side, windowRequests)` each, `windows` times. Sides may share a process (routes of one server) or not
 * (a worker process each).
 */
export async function countInTurns<Side extends string>(
  processes: ReadonlyMap<Side, CallgrindChild>,
  settings: InstructionSettings,
  functions: boolean,
  run: (side: Side, amount: number) => Promise<unknown>,
): Promise<Counted<Side>> {
  const sides = [...processes.keys()];
  const windows = new Map<Side, number[]>(sides.map((side) => [side, []]));
  const dumps = new Map<Side, Window[]>(sides.map((side) => [side, []]));
  // Sides in different processes warm up at once; sides sharing one, one after another.
  const children = [...new Set(processes.values())];
  const sidesOf = (child: CallgrindChild) => sides.filter((side) => processes.get(side) === child);
  await Promise.all(
    children.map(async (child) => {
      for (const side of sidesOf(child)) await run(side, settings.warmupRequests);
    }),
  );
  for (const child of children) child.count();
  for (let window = 0; window < settings.windows; window++) {
    for (const [side, child] of processes) {
      const counted = await child.window(() => run(side, settings.windowRequests));
      windows.get(side)?.push(counted.instructions / settings.windowRequests);
      if (functions) dumps.get(side)?.push(counted);
    }
  }
  if (!functions) return { windows };
  const byFunction = (side: Side): Map<string, number> => {
    const quietest = dumps.get(side)?.[quietestWindow(windows.get(side) ?? [])];
    const child = processes.get(side);
    return quietest && child ? child.byFunction(quietest, settings.windowRequests) : new Map();
  };
  return { windows, functions: new Map(sides.map((side) => [side, byFunction(side)])) };
}
