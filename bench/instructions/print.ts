import { median } from "../lib/stats";
import { quietestWindow } from "./callgrind-child";
import type { Counted } from "./turns";

const FUNCTION_ROWS = Number(process.env.FUNCTION_ROWS ?? 40);
const thousands = (value: number) => `${(value / 1000).toFixed(1)}k`;

/**
 * Prints each side's instructions per `unit` (min, median, every window) and its ratio to the first side; with
 * functions, per side after the first, the functions whose own instructions differ most from the first side's, in
 * each side's quietest window: where a side's extra instructions go, JavaScript included.
 */
export function printCounted<Side extends string>(title: string, unit: string, { windows, functions }: Counted<Side>) {
  const sides = [...windows.keys()];
  const [first] = sides;
  if (first === undefined) return;
  const base = windows.get(first) ?? [];
  console.log(`${title}: user-space instructions per ${unit}`);
  for (const side of sides) {
    const counts = windows.get(side) ?? [];
    const ratio =
      side === first
        ? ""
        : `; ÷ ${first}: ${(Math.min(...counts) / Math.min(...base)).toFixed(3)} (min), ${(median(counts) / median(base)).toFixed(3)} (median)`;
    console.log(
      `  ${side.padEnd(10)} min ${thousands(Math.min(...counts))}, median ${thousands(median(counts))} (${counts.map(thousands).join(" ")})${ratio}`,
    );
  }
  for (const side of functions ? sides.slice(1) : []) {
    const from = functions?.get(first) ?? new Map<string, number>();
    const to = functions?.get(side) ?? new Map<string, number>();
    const quiet = (name: Side) => thousands(windows.get(name)?.[quietestWindow(windows.get(name) ?? [])] ?? 0);
    console.log(`\n${side} (${quiet(side)}) - ${first} (${quiet(first)}): own instructions per ${unit}, by function`);
    const rows = [...new Set([...from.keys(), ...to.keys()])]
      .map((name) => ({ name, before: from.get(name) ?? 0, after: to.get(name) ?? 0 }))
      .sort((a, b) => Math.abs(b.after - b.before) - Math.abs(a.after - a.before))
      .slice(0, FUNCTION_ROWS);
    for (const { name, before, after } of rows) {
      const cell = (value: number) => value.toFixed(0).padStart(7);
      const change = after - before;
      console.log(
        `${cell(before)} ${cell(after)} ${(change >= 0 ? "+" : "") + change.toFixed(0).padStart(6)}  ${name.slice(0, 140)}`,
      );
    }
  }
}
