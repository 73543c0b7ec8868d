// `npm run simulate -- [--world receiver|worker|transactions] [--store memory|pglite|redis] [--runs N] [--seed S]
// [--path P --replay-path R] [--no-poison] [--max-commands N] [--max-handler-ms MS] [--max-entries N] [--sync-faults]`: runs seeded
// schedules against the Receiver and the queue workers (see README.md); on a failure prints the seed, the shrunk
// schedule and what broke, exits 1. `transactions`: transactional handlers on PGlite (transaction-world.ts), whatever
// the store.

import { PGlite } from "@electric-sql/pglite";
import fc from "fast-check";
import { receiverProperty } from "./receiver-schedule";
import { failureReport } from "./report";
import { DEFAULT_SETTINGS, type ScheduleSettings } from "./schedule";
import { type StoreKind, storeFactory } from "./stores";
import { txProperty } from "./transaction-schedule";
import { workerProperty } from "./worker-schedule";

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const at = args.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  if (at < 0) return undefined;
  const arg = args[at] as string;
  return arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[at + 1];
}

function oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
  const value = option(name);
  if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
  console.error(`--${name} must be one of ${allowed.join(", ")}`);
  process.exit(2);
}

const runs = Number(option("runs") ?? 1000);
const seedText = option("seed");
const seed = seedText === undefined ? Date.now() ^ (Math.random() * 0x100000000) : Number(seedText);
const path = option("path");
const world = oneOf("world", ["receiver", "worker", "transactions"] as const);
const store: StoreKind = oneOf("store", ["memory", "pglite", "redis"] as const) ?? "memory";
const maxEntries = option("max-entries");
const settings: ScheduleSettings = {
  ...DEFAULT_SETTINGS,
  poison: !process.argv.includes("--no-poison"),
  maxCommands: Number(option("max-commands") ?? DEFAULT_SETTINGS.maxCommands),
  maxHandlerMs: Number(option("max-handler-ms") ?? DEFAULT_SETTINGS.maxHandlerMs),
  replayPath: option("replay-path"),
  maxEntries: maxEntries === undefined ? undefined : Number(maxEntries),
  syncFaults: process.argv.includes("--sync-faults"),
};
const flags = [
  settings.poison ? "" : " --no-poison",
  option("max-commands") ? ` --max-commands ${settings.maxCommands}` : "",
  option("max-handler-ms") ? ` --max-handler-ms ${settings.maxHandlerMs}` : "",
  maxEntries ? ` --max-entries ${settings.maxEntries}` : "",
  settings.syncFaults ? " --sync-faults" : "",
].join("");

const stores = await storeFactory(store);

/** Runs one world's search; true if it held. */
async function search<T>(
  name: "receiver" | "worker" | "transactions",
  property: fc.IAsyncProperty<T>,
): Promise<boolean> {
  const started = performance.now();
  const on = name === "transactions" ? "pglite" : store;
  console.log(`simulating ${runs} ${name} schedules on ${on}, seed ${seed}${path ? `, path ${path}` : ""}`);
  const details = await fc.check(property, { numRuns: runs, seed, ...(path && { path }) });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (details.failed) {
    console.log(failureReport(details, { world: name, store, runs, flags }));
    return false;
  }
  console.log(`${details.numRuns} ${name} schedules held every invariant in ${seconds} s (seed ${seed})`);
  return true;
}

let held = true;
try {
  if (world === "transactions") {
    const db = new PGlite();
    held = await search("transactions", txProperty(db, settings.maxCommands)).finally(() => db.close());
  } else {
    if (world !== "worker") held = (await search("receiver", receiverProperty(settings, stores))) && held;
    if (world !== "receiver") held = (await search("worker", workerProperty(settings, stores))) && held;
  }
} finally {
  await stores.close();
}
process.exit(held ? 0 : 1);
