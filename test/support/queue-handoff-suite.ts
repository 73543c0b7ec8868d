import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { deliverEvents, eventIds, type FixtureProcess, readHandled, startFixture } from "./queue-scenarios";

/** What the hand-off suite needs from an engine: its fixture processes, its server, and a count of a queue's jobs. */
export interface EngineUnderTest {
  name: string;
  receiverScript: string;
  workerScript: string;
  /** Environment telling the fixtures where the engine is. */
  env(): Record<string, string>;
  jobCount(queue: string): Promise<number>;
  /** The event ids of the queue's jobs the engine counts as running (held by a worker). */
  runningEventIds(queue: string): Promise<string[]>;
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const uniqueIds = (file: string) => new Set(readHandled(file).map((record) => record.id)).size;

/**
 * Stops (SIGSTOP) a worker at a moment the engine shows it holding jobs, and returns their event ids. Frozen, it can
 * settle nothing more; the pause lets what it already sent reach the engine before the engine is asked.
 */
async function freezeWhileHoldingJobs(pid: number, running: () => Promise<string[]>): Promise<string[]> {
  for (let tries = 0; tries < 100; tries++) {
    process.kill(pid, "SIGSTOP");
    await pause(100);
    const ids = await running();
    if (ids.length > 0) return ids;
    process.kill(pid, "SIGCONT");
    await pause(20);
  }
  throw new Error("the worker never held a job when frozen");
}

/** The multi-process scenarios every queue engine must pass, on real receiver and worker processes. */
export function describeHandOff(engine: EngineUnderTest): void {
  const started: FixtureProcess[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((process) => process.stop("SIGKILL")));
  });

  function scenario(queue: string) {
    const handledLog = join(mkdtempSync(join(tmpdir(), "tidings-queue-")), "handled.jsonl");
    const start = async (script: string, extra: Record<string, string> = {}) => {
      const process = await startFixture(script, { ...engine.env(), QUEUE: queue, HANDLED_LOG: handledLog, ...extra });
      started.push(process);
      return process;
    };
    return {
      handledLog,
      receivers: async (count: number) => {
        const list = await Promise.all(Array.from({ length: count }, () => start(engine.receiverScript)));
        return list.map((receiver) => `http://127.0.0.1:${receiver.ready.port}/webhooks`);
      },
      worker: (extra?: Record<string, string>) => start(engine.workerScript, extra),
    };
  }

  describe(`${engine.name} hand-off across processes`, () => {
    it("2 receivers × 2 workers, 500 events each delivered 3 times at once: exactly 500 jobs, each handled once", async () => {
      const run = scenario("fanout");
      const urls = await run.receivers(2);
      await Promise.all([run.worker(), run.worker()]);
      const statuses = await deliverEvents(urls, eventIds("evt_fan", 500), { copies: 3 });
      expect(statuses.filter((status) => status === 200).length).toBe(1500);
      await expect.poll(() => readHandled(run.handledLog).length, { timeout: 60_000 }).toBe(500);
      const handled = readHandled(run.handledLog);
      expect(new Set(handled.map((record) => record.id)).size).toBe(500);
      expect(new Set(handled.map((record) => record.pid)).size).toBe(2);
      expect(await engine.jobCount("fanout")).toBe(500);
    });

    it("a worker SIGKILLed mid-run: the jobs it held run again on another worker, every event handled", async () => {
      const run = scenario("sigkill");
      const [url] = await run.receivers(1);
      const doomed = await run.worker({ WORK_MS: "200", CONCURRENCY: "4" });
      await deliverEvents([url as string], eventIds("evt_kill", 200));
      await expect.poll(() => readHandled(run.handledLog).length, { timeout: 30_000 }).toBeGreaterThan(10);
      const held = await freezeWhileHoldingJobs(doomed.pid, () => engine.runningEventIds("sigkill"));
      await doomed.stop("SIGKILL");
      const killedAfter = readHandled(run.handledLog).length;
      expect(killedAfter).toBeLessThan(200);
      const survivor = await run.worker();
      await expect.poll(() => uniqueIds(run.handledLog), { timeout: 60_000 }).toBe(200);
      // The jobs the killed worker held come back (stalled-job recovery, expiry) for their second run.
      const rerunBySurvivor = () =>
        readHandled(run.handledLog)
          .filter((record) => record.pid === survivor.pid && record.attempt === 2)
          .map((record) => record.id);
      await expect.poll(rerunBySurvivor, { timeout: 60_000 }).toEqual(expect.arrayContaining(held));
      const bySurvivor = readHandled(run.handledLog).filter((record) => record.pid === survivor.pid);
      expect(bySurvivor.length).toBeGreaterThanOrEqual(200 - killedAfter);
      expect(await engine.jobCount("sigkill")).toBe(200);
    });

    it(`${engine.name}'s server stopped during delivery: 5xx while it is down, then the retries get every event handled`, async () => {
      const run = scenario("outage");
      const urls = await run.receivers(2);
      await run.worker();
      const ids = eventIds("evt_outage", 100);
      const before = await deliverEvents(urls, ids.slice(0, 50));
      await engine.stopServer();
      const answered: number[] = [];
      const during = deliverEvents(urls, ids.slice(50), { statuses: answered });
      // Down until the receivers have answered 5xx for it: the outage reached the senders.
      await expect
        .poll(() => answered.filter((status) => status >= 500).length, { timeout: 30_000 })
        .toBeGreaterThan(0);
      await engine.startServer();
      const statuses = [...before, ...(await during)];
      expect(statuses.filter((status) => status === 200).length).toBe(100);
      await expect.poll(() => uniqueIds(run.handledLog), { timeout: 60_000 }).toBe(100);
      expect(await engine.jobCount("outage")).toBe(100);
    });
  });
}
