import type { DeliveryResult } from "./deliveries";

export interface Summary {
  sent: number;
  ok: number;
  other: number;
  failedToConnect: number;
  /** Latencies of deliveries that got an answer, in ms; undefined when none did. */
  p50?: number;
  p95?: number;
  max?: number;
}

/** Nearest-rank percentile of ascending values. */
export function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const isOk = (result: DeliveryResult) =>
  result.status !== undefined && result.status >= 200 && result.status < 300;

export function summarize(results: readonly DeliveryResult[]): Summary {
  const answered = results.filter((result) => result.status !== undefined);
  const latencies = answered.map((result) => result.ms).sort((a, b) => a - b);
  const ok = answered.filter(isOk).length;
  const summary: Summary = {
    sent: results.length,
    ok,
    other: answered.length - ok,
    failedToConnect: results.length - answered.length,
  };
  const p50 = percentile(latencies, 50);
  const p95 = percentile(latencies, 95);
  const max = latencies.at(-1);
  if (p50 !== undefined) summary.p50 = p50;
  if (p95 !== undefined) summary.p95 = p95;
  if (max !== undefined) summary.max = max;
  return summary;
}

const ms = (value: number | undefined) => (value === undefined ? "-" : `${value.toFixed(1)} ms`);

export function formatResult(result: DeliveryResult, count: number): string {
  const outcome =
    result.status === undefined
      ? `failed to connect (${result.error})`
      : `${result.status}${result.code ? ` ${result.code}` : ""}`;
  return `${String(result.index).padStart(String(count).length)}/${count} ${result.eventId} ${outcome} ${ms(result.ms)}`;
}

export function formatSummary(summary: Summary): string {
  return [
    `sent ${summary.sent}: 2xx ${summary.ok}, other ${summary.other}, failed to connect ${summary.failedToConnect}`,
    `latency: p50 ${ms(summary.p50)}, p95 ${ms(summary.p95)}, max ${ms(summary.max)}`,
  ].join("\n");
}
