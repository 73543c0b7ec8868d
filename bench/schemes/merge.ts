import type { SchemeResults, SchemeRow } from "./suite";

/** The scheme a row's name belongs to: `standard-webhooks (ed25519)` is standard-webhooks'. */
export const schemeOf = (label: string) => label.replace(/ \(.*\)$/, "");

/**
 * A run of some schemes written into a report that holds them all: their rows (and their unmeasured entries) replace
 * the stored ones in place, the others stay as the earlier run counted them, and the report names the schemes counted
 * apart. Each scheme's three sides are counted in one process either way, so its ratios never mix runs.
 */
export function mergeSchemeRows(stored: SchemeResults, fresh: SchemeResults, names: readonly string[]): SchemeResults {
  const ran = new Set(names);
  const freshRow = new Map(fresh.rows.map((row) => [`${row.scheme}|${row.size}`, row]));
  const rows: SchemeRow[] = stored.rows.flatMap((row) => {
    if (!ran.has(schemeOf(row.scheme))) return [row];
    const replacement = freshRow.get(`${row.scheme}|${row.size}`);
    freshRow.delete(`${row.scheme}|${row.size}`);
    return replacement ? [replacement] : [];
  });
  rows.push(...freshRow.values());
  const unmeasured = [
    ...(stored.unmeasured ?? []).filter(({ scheme }) => !ran.has(scheme)),
    ...(fresh.unmeasured ?? []),
  ];
  const recounted = [...new Set([...(stored.recounted ?? []), ...names])];
  return { ...stored, rows, unmeasured, recounted };
}
