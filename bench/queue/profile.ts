/**
 * Instructions of one engine's hand-off, its two sides side by side (the suite's full-mode windows), to decide a
 * change to packages/bullmq or packages/pg-boss:
 *   npm run profile:queue --workspace @tidings/bench -- bullmq enqueue      (ideal route, then adapter + enqueueTo)
 *   npm run profile:queue --workspace @tidings/bench -- pg-boss worker --functions    (bare worker, then ours)
 *   npm run profile:queue --workspace @tidings/bench -- bullmq group-commit  (batched, one add, unbatched: callgrind)
 *   npm run profile:queue --workspace @tidings/bench -- pg-boss batching    (the same routes timed, no callgrind)
 * `--functions`: as in profile:instructions, where the second side's extra instructions go, by function.
 */
import { printCounted } from "../instructions/print";
import { Child } from "../lib/children";
import { parseOptions } from "../lib/options";
import { measureBatching } from "./batched";
import { countBatching } from "./batched-instructions";
import { type Backend, ENGINE_IDS, ENGINES, type EngineSpec } from "./engines";
import { measureEnqueue } from "./enqueue";
import { measureWorkers } from "./work";

const [id = "bullmq", side = "enqueue"] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const engine = ENGINES.find((candidate) => candidate.id === id);
if (!engine || !["enqueue", "worker", "group-commit", "batching"].includes(side)) {
  throw new Error(`usage: profile.ts ${ENGINE_IDS.join("|")} enqueue|worker|group-commit|batching [--functions]`);
}
const { queue: settings } = parseOptions([], "", [], ENGINE_IDS);
const functions = process.argv.includes("--functions");
async function profileBatching(backend: Backend): Promise<void> {
  const client = new Child("http/client.ts", {});
  try {
    const result = await measureBatching(engine as EngineSpec, backend, settings, client, console.log);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await client.stop();
  }
}

async function profileGroupCommit(backend: Backend): Promise<void> {
  const { result, counted } = await countBatching(engine as EngineSpec, backend, settings, functions);
  const { windows, windowRequests, warmupRequests } = settings.batchingCount;
  const title = `${engine?.label()}, group commit: ${windows} windows of ${windowRequests} after ${warmupRequests} warm-up`;
  printCounted(title, "delivery", counted);
  console.log(JSON.stringify(result, null, 2));
}

async function profileInstructions(backend: Backend): Promise<void> {
  const counted =
    side === "enqueue"
      ? await measureEnqueue(engine as EngineSpec, backend, settings, functions)
      : await measureWorkers(engine as EngineSpec, backend, settings, functions);
  const { windows, windowRequests, warmupRequests } = side === "enqueue" ? settings.enqueue : settings.worker;
  const title = `${engine?.label()}, ${side}: ${windows} windows of ${windowRequests} after ${warmupRequests} warm-up`;
  printCounted(title, side === "enqueue" ? "request" : "job", counted);
}

const backend = await engine.start();
try {
  if (side === "batching") await profileBatching(backend);
  else if (side === "group-commit") await profileGroupCommit(backend);
  else await profileInstructions(backend);
} finally {
  await backend.remove();
}
