import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createReceiver, sign } from "@tidings/core";
import type { Enqueuer } from "@tidings/core/dispatch";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eventBody, type FixtureProcess, QUEUE_SECRET, startFixture } from "./queue-scenarios";
import { until } from "./wait";

/** One engine, for the effects suite: how to start its effects worker, enqueue, and read a job's state. */
export interface EffectsEngine {
  name: string;
  /** The engine package's effects worker fixture (it runs `effectsWorkerParts`). */
  workerScript: string;
  /** The engine's connection for the worker processes (REDIS_PORT, POSTGRES_URL). */
  env(): Record<string, string>;
  /** The app's PostgreSQL: store, inbox and app table. */
  appDatabaseUrl(): string;
  /** An enqueuer on `queue` whose jobs run again soon after their worker died. */
  enqueuer(queue: string): Enqueuer;
  /** Whether the job of the delivery key completed. */
  completed(queue: string, deliveryKey: string): Promise<boolean>;
}

interface Run {
  id: string;
  pid: number;
  step: "wrote" | "committed";
}

/**
 * A worker SIGKILLed mid-job, then another one taking the job over: the app table holds one row per event whether
 * the kill came after the transaction committed (the rerun finds its inbox row and completes without running the
 * handler) or before it (the rerun finds nothing and runs the handler once).
 */
export function describeEffects(engine: EffectsEngine): void {
  let pool: pg.Pool;
  let n = 0;
  const started: FixtureProcess[] = [];
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: engine.appDatabaseUrl(), max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((process) => process.stop("SIGKILL")));
  });

  async function scenario(hold: "before-commit" | "after-commit") {
    const queue = `effects_${hold.replace("-", "_")}_${n++}`;
    const table = `${queue}_rows`;
    const runLog = join(tmpdir(), `tidings-${queue}-${process.pid}.log`);
    rmSync(runLog, { force: true });
    await pool.query(`create table ${table} (event_id text not null, pid int not null)`);
    const worker = async (held: "" | typeof hold) => {
      const env = { ...engine.env(), APP_DATABASE_URL: engine.appDatabaseUrl(), APP_TABLE: table, RUN_LOG: runLog };
      const process = await startFixture(engine.workerScript, { ...env, QUEUE: queue, HOLD: held });
      started.push(process);
      return process;
    };
    const runs = (): Run[] =>
      readFileSync(runLog, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Run);
    const logged = (step: Run["step"]) => () => {
      try {
        return runs().some((run) => run.step === step);
      } catch {
        return false; // no run logged yet
      }
    };
    const receiver = createReceiver({ secret: QUEUE_SECRET }).onAny(engine.enqueuer(queue));
    const send = async (id: string) => {
      const body = eventBody(id);
      const answer = await receiver.receive({
        rawBody: new TextEncoder().encode(body),
        headers: { "service-signature": sign(body, QUEUE_SECRET) },
      });
      expect(answer.status).toBe(200);
    };
    const rows = async () =>
      (await pool.query<{ event_id: string; pid: number }>(`select event_id, pid from ${table}`)).rows;
    return { queue, worker, runs, logged, send, rows };
  }

  describe(`a handler's writes in the job's transaction, through SIGKILLs (${engine.name})`, () => {
    it("killed after the commit, before the job completed: the rerun completes it without running the handler", async () => {
      const run = await scenario("after-commit");
      await run.send("evt_after");
      const doomed = await run.worker("after-commit");
      await until(run.logged("committed"), "the doomed worker's commit");
      await doomed.stop("SIGKILL");
      expect(await engine.completed(run.queue, "event:evt_after")).toBe(false);
      await run.worker("");
      await until(() => engine.completed(run.queue, "event:evt_after"), "the rerun to complete the job");
      expect(await run.rows()).toEqual([{ event_id: "evt_after", pid: doomed.pid }]);
      expect(run.runs().filter((entry) => entry.step === "wrote")).toEqual([
        { id: "evt_after", pid: doomed.pid, step: "wrote" },
      ]);
    });

    it("killed before the commit: the rerun finds nothing, runs the handler and writes the row once", async () => {
      const run = await scenario("before-commit");
      await run.send("evt_before");
      const doomed = await run.worker("before-commit");
      await until(run.logged("wrote"), "the doomed worker's write");
      await doomed.stop("SIGKILL");
      const survivor = await run.worker("");
      await until(() => engine.completed(run.queue, "event:evt_before"), "the rerun to complete the job");
      expect(await run.rows()).toEqual([{ event_id: "evt_before", pid: survivor.ready.pid }]);
      expect(run.runs().map(({ pid, step }) => [pid === doomed.pid ? "doomed" : "survivor", step])).toEqual([
        ["doomed", "wrote"],
        ["survivor", "wrote"],
        ["survivor", "committed"],
      ]);
    });
  });
}
