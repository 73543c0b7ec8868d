/**
 * Beside the report, a folder holds each suite's results (`<suite>.json`, the rows its tables are written from) and
 * its chart (`<suite>.svg`, drawn from the same rows): a run of some suites rewrites theirs, and `--rerender` draws
 * the report's sections and charts again from the stored results without measuring.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CHARTS, chartFile } from "./charts/specs";
import { barChart } from "./charts/svg";
import type { SuiteName } from "./lib/options";
import { type Results, SUITE_RESULTS } from "./report";

/** The folder's name, beside the report: the charts' links are relative to the report. */
export const CHARTS_FOLDER = "bench-charts";

export const chartsDir = (out: string) => join(dirname(out), CHARTS_FOLDER);
const resultsFile = (dir: string, suite: SuiteName) => join(dir, `${suite}.json`);

const LINE_WIDTH = 120;

/** Numbers as many to a line as fit, a comma after each but the last: how the formatter lays out a long number array. */
function fill(indent: string, items: readonly string[]): string {
  const lines: string[] = [];
  let line = "";
  items.forEach((item, index) => {
    const piece = index < items.length - 1 ? `${item},` : item;
    if (line !== "" && line.length + 1 + piece.length > LINE_WIDTH) {
      lines.push(line);
      line = "";
    }
    line = line === "" ? `${indent}  ${piece}` : `${line} ${piece}`;
  });
  return [...lines, line].join("\n");
}

/**
 * JSON as the repository's formatter writes it: a key a line, arrays of numbers or strings on one line if they fit, a
 * longer array of numbers filling lines.
 */
function json(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/^( *)(.*)\[\n([^[\]{}]*?)\n *\]/gm, (whole, indent, head, text) => {
    const items = text.trim().split(/,\n\s*/);
    const inline = `${indent}${head}[${items.join(", ")}]`;
    if (inline.length <= LINE_WIDTH) return inline;
    const numbers = items.every((item: string) => /^-?[\d.eE+-]+$/.test(item));
    return numbers ? `${indent}${head}[\n${fill(indent, items)}\n${indent}]` : whole;
  });
}

/** Writes the results and chart of each of `suites` that has results; a chart with nothing to draw is removed. */
export function writeSuiteFiles(dir: string, results: Results, suites: readonly SuiteName[]): void {
  mkdirSync(dir, { recursive: true });
  for (const suite of suites) {
    const own = SUITE_RESULTS[suite].filter((key) => results[key] !== undefined);
    if (own.length === 0) continue;
    const stored = Object.fromEntries(own.map((key) => [key, results[key]]));
    writeFileSync(resultsFile(dir, suite), `${json(stored)}\n`);
    const chart = CHARTS[suite]?.(results);
    if (chart && chart.groups.length > 0) writeFileSync(join(dir, chartFile(suite)), barChart(chart));
    else rmSync(join(dir, chartFile(suite)), { force: true });
  }
}

/** The stored results of those of `suites` that have a file. */
export function readSuiteFiles(dir: string, suites: readonly SuiteName[]): { results: Results; found: SuiteName[] } {
  const found = suites.filter((suite) => existsSync(resultsFile(dir, suite)));
  const results: Results = {};
  for (const suite of found) Object.assign(results, JSON.parse(readFileSync(resultsFile(dir, suite), "utf8")));
  return { results, found };
}
