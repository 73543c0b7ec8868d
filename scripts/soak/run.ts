// `npm run soak [-- --quick] [--effects] [--engines=bullmq,pg-boss] [--deliveries=N] [--out=docs/reliability.md]
// [--save=runs.json | --from=runs.json,…]`: the
// emulator's chaos (duplicates, reordering, delays) at a steady rate against 3 receiver and 2 worker processes sharing
// an engine, while a random receiver or worker is SIGKILLed (and restarted) every few seconds and the engine's server
// restarts once. Then: every event acknowledged to the sender was handled (or answered stale), none ran twice but for
// a worker killed mid-job, and with `order` every message ends at its final status. Writes the report; exits 1 if
// anything was lost.
// With `--effects` (engines request, bullmq, pg-boss; the report docs/reliability-effects.md), handlers run in the
// delivery's PostgreSQL transaction, write one row per event into the app's table and send a follow-up message for
// each `message.failed`, and some of them are killed at a chosen point of their run (effects.ts): no effect may be
// applied twice, and some runs must have been killed and run again.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "@tidings/cli";
import pg from "pg";
import { seededRandom } from "../../packages/cli/src/emulator/chaos";
import { ensureNodeBinaries, nodeBinary } from "../../test/runtimes/lib/node-binaries.mjs";
import { readAppEffects } from "./app-table";
import { Cast } from "./cast";
import { CREATE_APP_TABLE } from "./effects";
import { type EngineName, startEngine } from "./engine";
import { countFollowUps } from "./follow-ups";
import { FULL_DELIVERIES, renderReport, type SoakRun } from "./report";
import { type Acknowledged, failures, judge, parseEffects, type Verdict } from "./verdict";

const args = process.argv.slice(2);
const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = args.includes("--quick");
const effects = args.includes("--effects");
const engines = (option("engines") ?? (effects ? "request,bullmq,pg-boss" : "bullmq,pg-boss")).split(
  ",",
) as EngineName[];
const out = option("out");
const SETTINGS = {
  ...(quick
    ? { deliveries: effects ? 300 : 1_200, messagesPerSecond: 80, killEveryMs: 2_000 }
    : { deliveries: FULL_DELIVERIES, messagesPerSecond: 120, killEveryMs: 4_000 }),
  ...(option("deliveries") ? { deliveries: Number(option("deliveries")) } : {}),
};
// With effects: one event in this many has its first run killed at a chosen point (effects.ts).
const AIM_EVERY = quick ? 25 : 1_000;
const SECRET = "whsec_soak";
const CHAOS = { duplicates: 0.1, reorder: 0.3, delayMs: [0, 50] as const, seed: 7 };
// Every event of the emulator's test mode: queued, sent, then delivered or failed (a recipient that always fails).
const EVENTS_PER_MESSAGE = 3;
const MAX_SENDS_IN_FLIGHT = 32;
// Messages sent whose three events are not all acknowledged yet: past this many, no new message is sent until the
// receivers catch up, as a sender bounds what it has in flight to one endpoint (the emulator sends a message's events
// one after another, so this bounds its attempts in flight too). Without it, a machine slower than the rate piles up
// attempts and sockets without end.
const MAX_MESSAGES_IN_PROGRESS = 100;
// Retries back off: 250 ms, then 10 % longer each time, for about 12 minutes (a 5 s lease, a restart, many kills).
const RETRY = { attempts: 60, baseDelayMs: 250, factor: 1.1 };

async function soak(engine: EngineName): Promise<SoakRun> {
  const server = await startEngine(engine, effects);
  const effectsDir = mkdtempSync(join(tmpdir(), "tidings-soak-"));
  const node = engine === "pg-boss" ? nodeBinary("node24") : process.execPath;
  const followUps = effects ? await countFollowUps() : undefined;
  if (effects) await withDatabase(server.env.DATABASE_URL as string, (db) => db.query(CREATE_APP_TABLE));
  const cast = new Cast(node, {
    ...server.env,
    SECRET,
    QUEUE: "soak",
    EFFECTS_DIR: effectsDir,
    ...(followUps ? { EFFECTS: "1", FOLLOW_UP_URL: followUps.url, AIM_EVERY: String(AIM_EVERY) } : {}),
  });
  const acknowledged = new Map<string, Acknowledged>();
  const firstSeen = new Map<string, number>();
  const read = (body: Buffer) => JSON.parse(body.toString()) as { id: string; type: string; data: { id: string } };
  cast.onAttempt = (body) => {
    const { id } = read(body);
    if (!firstSeen.has(id)) firstSeen.set(id, Date.now());
  };
  const acknowledgedPerMessage = new Map<string, number>();
  let messagesAcknowledged = 0;
  cast.onAccepted = (body) => {
    const { id, type, data } = read(body);
    if (acknowledged.has(id)) return;
    acknowledged.set(id, { message: data.id, type, firstSeenAt: firstSeen.get(id) ?? Date.now() });
    const count = (acknowledgedPerMessage.get(data.id) ?? 0) + 1;
    acknowledgedPerMessage.set(data.id, count);
    if (count === EVENTS_PER_MESSAGE) messagesAcknowledged++;
  };
  // The request engine's receivers run the handlers: no queue, no workers.
  const workers = engine === "request" ? [] : (["worker", "worker"] as const);
  for (const role of ["receiver", "receiver", "receiver", ...workers] as const) await cast.start(role);
  const balancer = await cast.balancer();
  const emulator = await startEmulator({
    webhookUrl: balancer.url,
    secret: SECRET,
    log: false,
    chaos: CHAOS,
    retry: RETRY,
    // Every key of the run remembered, the messages' and the follow-ups': a rerun late in a long run still replays.
    idempotencyKeys: 4 * SETTINGS.deliveries,
  });
  if (followUps) followUps.emulatorUrl = emulator.url;
  const random = seededRandom(CHAOS.seed);
  const started = Date.now();
  let restarts = 0;
  let faults = Promise.resolve();
  // Open file descriptors of this process (the emulator's sockets and the balancer's), for a run that runs out.
  const descriptors = setInterval(
    () => console.error(`open descriptors: ${readdirSync("/proc/self/fd").length}`),
    30_000,
  );
  const killer = setInterval(() => {
    faults = faults.then(() => cast.killOne(random)).catch((error) => console.error(error));
  }, SETTINGS.killEveryMs);

  const messages = Math.ceil(SETTINGS.deliveries / EVENTS_PER_MESSAGE);
  // At most this many message POSTs in flight: behind the rate, the loop waits rather than opening more sockets.
  const sends = new Set<Promise<void>>();
  for (let n = 0; n < messages; n++) {
    if (n === Math.floor(messages / 2)) {
      faults = faults.then(async () => {
        await server.restart();
        restarts++;
      });
    }
    const to = n % 10 === 9 ? "+15005550001" : `+1555${String(n).padStart(7, "0")}`;
    const send = createMessage(emulator.url, `soak-${engine}-${n}`, to, n).finally(() => sends.delete(send));
    sends.add(send);
    if (sends.size >= MAX_SENDS_IN_FLIGHT) await Promise.race(sends);
    // A minute with none acknowledged (events abandoned): send anyway, so the run ends and judges them.
    for (let waited = 0; n - messagesAcknowledged > MAX_MESSAGES_IN_PROGRESS && waited < 600; ) {
      const before = messagesAcknowledged;
      await new Promise((resolve) => setTimeout(resolve, 100));
      waited = messagesAcknowledged === before ? waited + 1 : 0;
    }
    const due = started + ((n + 1) * 1000) / SETTINGS.messagesPerSecond;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
  }
  await Promise.all([...sends]);
  const sendSeconds = (Date.now() - started) / 1000;
  await emulator.idle();
  clearInterval(killer);
  clearInterval(descriptors);
  await faults;
  const settledSeconds = (Date.now() - started) / 1000;
  // The workers finish what the queue still holds, then their last effects land. Follow-ups the workers sent since
  // are messages whose events the emulator then delivers: one more round (a follow-up sends none of its own).
  let logged = await settle(engine, cast, effectsDir);
  if (followUps) {
    await emulator.idle();
    logged = await settle(engine, cast, effectsDir);
  }
  const app = followUps && {
    ...(await withDatabase(server.env.DATABASE_URL as string, readAppEffects)),
    followUps: followUps.created,
  };
  await emulator.close();
  followUps?.close();
  balancer.server.close();
  await cast.stopAll();
  await server.remove();
  rmSync(effectsDir, { recursive: true, force: true });
  const verdict: Verdict = judge(acknowledged, logged, cast.kills, app);
  for (const event of verdict.lost.slice(0, 20)) {
    const runs = logged.filter((effect) => effect.event === event).map(({ kind, pid, at }) => `${kind} ${pid} ${at}`);
    console.error(`lost ${event} (${acknowledged.get(event)?.type}): ${runs.join(", ") || "never run"}`);
  }
  return {
    engine,
    deliveries: firstSeen.size,
    sendSeconds,
    settledSeconds,
    kills: cast.kills.length,
    restarts,
    verdict,
  };
}

/** POSTs one message as a client library would: a reset connection is retried under the same idempotency key. */
async function createMessage(url: string, key: string, to: string, n: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(`${url}/v3/messages`, {
        method: "POST",
        headers: { authorization: "Bearer sk_test_soak", "idempotency-key": key },
        body: new URLSearchParams({ channel: "sms", to, body: `soak ${n}` }),
      });
      await response.arrayBuffer();
      if (response.status === 202 || attempt === 5) return;
    } catch (error) {
      if (attempt === 5) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
  }
}

function readEffects(dir: string) {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".log"))
    .flatMap((file) => parseEffects(readFileSync(join(dir, file), "utf8")));
}

/** Once the queue (if any) is drained, waits for the effects logs to stop growing, and reads them. */
async function settle(engine: EngineName, cast: Cast, dir: string) {
  if (engine !== "request") await cast.drained();
  let logged = readEffects(dir);
  for (let stable = 0; stable < 3; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = readEffects(dir);
    stable = now.length === logged.length ? stable + 1 : 0;
    logged = now;
  }
  return logged;
}

async function withDatabase<T>(url: string, use: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return await use(db);
  } finally {
    await db.end();
  }
}

// `--save=runs.json` keeps the runs; `--from=a.json,b.json` writes the report of runs saved by separate invocations
// (one engine each, at the same settings) without running anything.
const save = option("save");
const from = option("from");
const runs: SoakRun[] = [];
if (from) {
  for (const file of from.split(",")) runs.push(...(JSON.parse(readFileSync(file, "utf8")) as SoakRun[]));
} else {
  if (engines.includes("pg-boss")) ensureNodeBinaries();
  for (const engine of engines) {
    console.log(
      `== ${engine}: ${SETTINGS.deliveries} deliveries${quick ? " (quick)" : ""}${effects ? " with effects" : ""}`,
    );
    const run = await soak(engine);
    console.log(JSON.stringify({ ...run, verdict: { ...run.verdict, lost: run.verdict.lost.length } }));
    runs.push(run);
  }
  if (save) writeFileSync(save, JSON.stringify(runs));
}
const report = renderReport(runs, {
  quick,
  merged: from !== undefined,
  effects: effects ? { aimEvery: AIM_EVERY } : undefined,
  ...SETTINGS,
  maxMessagesInProgress: MAX_MESSAGES_IN_PROGRESS,
  retry: RETRY,
  chaos: CHAOS,
});
if (out) writeFileSync(out, report);
else console.log(report);
let failed = false;
for (const { engine, verdict } of runs) {
  const found = failures(verdict);
  if (found.length > 0) console.error(`${engine}: ${found.join("; ")}`);
  failed ||= found.length > 0;
}
process.exit(failed ? 1 : 0);
