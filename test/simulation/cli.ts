// `npm run simulate -- [--runs N] [--seed S] [--path P --replay-path R] [--no-poison] [--max-commands N]
// [--max-handler-ms MS]`: runs seeded schedules against the Receiver (see README.md); on a failure prints the seed, the shrunk schedule and what broke, exits 1.
import fc from "fast-check";
import { DEFAULT_SETTINGS, receiverProperty } from "./receiver-schedule";

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const at = args.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  if (at < 0) return undefined;
  const arg = args[at] as string;
  return arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[at + 1];
}

const runs = Number(option("runs") ?? 1000);
const seedText = option("seed");
const seed = seedText === undefined ? Date.now() ^ (Math.random() * 0x100000000) : Number(seedText);
const path = option("path");
const settings = {
  ...DEFAULT_SETTINGS,
  poison: !process.argv.includes("--no-poison"),
  maxCommands: Number(option("max-commands") ?? DEFAULT_SETTINGS.maxCommands),
  maxHandlerMs: Number(option("max-handler-ms") ?? DEFAULT_SETTINGS.maxHandlerMs),
  replayPath: option("replay-path"),
};
const flags = [
  settings.poison ? "" : " --no-poison",
  option("max-commands") ? ` --max-commands ${settings.maxCommands}` : "",
  option("max-handler-ms") ? ` --max-handler-ms ${settings.maxHandlerMs}` : "",
].join("");

const started = performance.now();
console.log(`simulating ${runs} schedules, seed ${seed}${path ? `, path ${path}` : ""}`);
const details = await fc.check(receiverProperty(settings), { numRuns: runs, seed, ...(path && { path }) });
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (details.failed) {
  console.log(fc.defaultReportMessage(details) ?? "failed");
  const error = details.errorInstance;
  console.log(`\nWhat broke:\n${error instanceof Error ? error.message : String(error)}`);
  const replayPath = /replayPath="([^"]*)"/.exec(fc.stringify(details.counterexample))?.[1];
  console.log(`\nreplay the search: npm run simulate -- --runs ${runs} --seed ${seed}${flags}`);
  console.log(
    `replay the shrunk schedule alone: npm run simulate -- --runs ${runs} --seed ${seed} --path ${details.counterexamplePath}${replayPath ? ` --replay-path '${replayPath}'` : ""}${flags}`,
  );
  process.exit(1);
}
console.log(`${details.numRuns} schedules held every invariant in ${seconds} s (seed ${seed})`);
