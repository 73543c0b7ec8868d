import type { CheckReport, ProbeResult } from "./run-check";

const ms = (value: number) => `${value.toFixed(1)} ms`;

const titleOf = (result: ProbeResult) =>
  result.name === "large-body" ? `${result.title} (${result.bytesSent} bytes)` : result.title;

function line(result: ProbeResult, titleWidth: number): string {
  const mark = result.pass ? "PASS" : "FAIL";
  const got = `${result.got}${result.code ? ` ${result.code}` : ""}`;
  const lines = [
    `${mark}  ${titleOf(result).padEnd(titleWidth)}  expected ${result.expected.padEnd(7)}  got ${got.padEnd(24)} ${ms(result.ms)}`,
  ];
  if (result.hint) lines.push(`      fix: ${result.hint}`);
  if (result.slow) lines.push("      warn: slower than --timeout-warn; the sender would give up and retry.");
  return lines.join("\n");
}

/** The report card: one line per probe, a fix under each failure, a summary. */
export function formatReport(report: CheckReport): string {
  const width = Math.max(
    ...report.results.map((result) => result.title.length + (result.name === "large-body" ? 20 : 0)),
  );
  const failed = report.results.filter((result) => !result.pass).length;
  const slow = report.results.filter((result) => result.slow).length;
  const slowest = Math.max(...report.results.map((result) => result.ms));
  return [
    `tidings check ${report.url}`,
    ...report.results.map((result) => line(result, width)),
    ...report.skipped.map(({ title, reason }) => `SKIP  ${title.padEnd(width)}  ${reason}`),
    `${report.results.length} probes: ${report.results.length - failed} passed, ${failed} failed, ${slow} slower than ${report.warnMs} ms (slowest ${ms(slowest)})`,
  ].join("\n");
}
