export interface Budget {
  name: string;
  /** The row's name in the README; a scheme's row is named by `scheme`. */
  readme?: string;
  scheme?: string;
  code: string;
  limit: number | undefined;
}
export interface MeasuredBudget extends Budget {
  minified: number;
  gzipped: number;
}
export const KB: number;
export const SCHEME_LIMIT: number;
export const START: string;
export const END: string;
export function factoryName(scheme: string): string;
export function budgets(schemeNames: readonly string[]): Budget[];
export function sizeTables(rows: readonly MeasuredBudget[]): string;
export function withSizeTables(readme: string, tables: string): string;
