import fc from "fast-check";
import type { StoreKind } from "./stores";

/** What a failure's replay command needs besides the seed. */
export interface Search {
  world: "receiver" | "worker" | "transactions";
  store: StoreKind;
  runs: number;
  /** Further `npm run simulate` flags the search ran with. */
  flags?: string;
}

/** A failed search told in full: the shrunk schedule, what broke, and the commands that replay both. */
export function failureReport<T>(details: fc.RunDetails<T>, search: Search): string {
  const error = details.errorInstance;
  const replayPath = /replayPath="([^"]*)"/.exec(fc.stringify(details.counterexample))?.[1];
  const store = search.store === "memory" ? "" : ` --store ${search.store}`;
  const command = `npm run simulate -- --world ${search.world}${store} --runs ${search.runs} --seed ${details.seed}`;
  const flags = search.flags ?? "";
  return [
    fc.defaultReportMessage(details) ?? "failed",
    `\nWhat broke:\n${error instanceof Error ? error.message : String(error)}`,
    `\nreplay the search: ${command}${flags}`,
    `replay the shrunk schedule alone: ${command} --path ${details.counterexamplePath}${replayPath ? ` --replay-path '${replayPath}'` : ""}${flags}`,
  ].join("\n");
}

/** Runs a search; a failure throws its full report: the seed first, the replay commands last. */
export async function assertSchedules<T>(
  property: fc.IAsyncProperty<T>,
  search: Search,
  seed: number | undefined,
): Promise<void> {
  const details = await fc.check(property, { numRuns: search.runs, ...(seed !== undefined && { seed }) });
  if (!details.failed) return;
  throw new Error(
    `${search.world} schedules on ${search.store} failed, seed ${details.seed}\n\n${failureReport(details, search)}`,
  );
}
