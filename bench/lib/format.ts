/** How the report writes numbers and tables, shared by every suite's section. */
import type { Summary } from "./stats";

export const dash = "–";

export function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

/** "median (min–max)" of per-round values. */
export function spread(summary: Summary, digits: number, scale = 1): string {
  const v = (value: number) => fixed(value * scale, digits);
  return summary.n > 1 ? `${v(summary.median)} (${v(summary.min)}${dash}${v(summary.max)})` : v(summary.median);
}

export function thousands(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "n/a";
}

/** Instructions as "40.3 k" or "29.37 M". */
export function count(instructions: number): string {
  return instructions >= 1e6 ? `${(instructions / 1e6).toFixed(2)} M` : `${(instructions / 1e3).toFixed(1)} k`;
}

/** A Markdown table under `header`, its cells written as a Markdown header line: `"a | b | c"`. */
export function table(header: string, rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  const names = header.split("|").map((name) => name.trim());
  return [line(names), line(names.map(() => "---")), ...rows.map(line)].join("\n");
}
