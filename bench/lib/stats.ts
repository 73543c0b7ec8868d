/** Median, min and max of per-round values: the spread shows how much the machine's noise moved them. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function summarize(values: readonly number[]): Summary {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length };
}

/** Rotating the order each pass spreads the machine's drifts over every item instead of always the last one. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

/** Two sides' counts over windows (a route and its baseline, say) and how they compare. */
export interface Pair {
  base: Summary;
  ours: Summary;
  /** Ours ÷ base of the quietest windows (the minima: no full collection in them): a target is judged on it. */
  ratio: number;
  /** Ours ÷ base of the medians, collections included. */
  medianRatio: number;
}

export function pairOf(base: readonly number[], ours: readonly number[]): Pair {
  const [baseCounts, oursCounts] = [summarize(base), summarize(ours)];
  return {
    base: baseCounts,
    ours: oursCounts,
    ratio: oursCounts.min / baseCounts.min,
    medianRatio: oursCounts.median / baseCounts.median,
  };
}
