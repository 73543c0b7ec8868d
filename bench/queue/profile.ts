/**
 * Instructions of one engine's hand-off, its two sides side by side (the suite's full-mode windows), to decide a
 * change to packages/bullmq or packages/pg-boss:
 *   npm run profile:queue --workspace @tidings/bench -- bullmq enqueue      (ideal route, then adapter + enqueueTo)
 *   npm run profile:queue --workspace @tidings/bench -- pg-boss worker --functions    (bare worker, then ours)
 * `--functions`: as in profile:instructions, where the second side's extra instructions go, by function.
 */
import { printCounted } from "../instructions/print";
import { parseOptions } from "../lib/options";
import { ENGINE_IDS, ENGINES } from "./engines";
import { measureEnqueue } from "./enqueue";
import { measureWorkers } from "./work";

const [id = "bullmq", side = "enqueue"] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const engine = ENGINES.find((candidate) => candidate.id === id);
if (!engine || !["enqueue", "worker"].includes(side)) {
  throw new Error(`usage: profile.ts ${ENGINE_IDS.join("|")} enqueue|worker [--functions]`);
}
const { queue: settings } = parseOptions([], "", [], ENGINE_IDS);
const functions = process.argv.includes("--functions");
const backend = await engine.start();
try {
  const counted =
    side === "enqueue"
      ? await measureEnqueue(engine, backend, settings, functions)
      : await measureWorkers(engine, backend, settings, functions);
  const { windows, windowRequests, warmupRequests } = side === "enqueue" ? settings.enqueue : settings.worker;
  const title = `${engine.label()}, ${side}: ${windows} windows of ${windowRequests} after ${warmupRequests} warm-up`;
  printCounted(title, side === "enqueue" ? "request" : "job", counted);
} finally {
  await backend.remove();
}
