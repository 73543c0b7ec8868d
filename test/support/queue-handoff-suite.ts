import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { deliverEvents, eventIds, type FixtureProcess, readHandled, startFixture } from "./queue-scenarios";
import { changesOf, until } from "./wait";

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

const uniqueIds = (file: string) => new Set(readHandled(file).map((record) => record.id)).size;

/** The multi-process scenarios every queue engine must pass, on real receiver and worker processes. */
export function describeHandOff(engine: EngineUnderTest): void {
  const started: FixtureProcess[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((process) => process.stop("SIGKILL")));
  });

  function scenario(queue: string) {
    const dir = mkdtempSync(join(tmpdir(), "tidings-queue-"));
    const handledLog = join(dir, "handled.jsonl");
    const start = async (script: string, extra: Record<string, string> = {}) => {
      const process = await startFixture(script, { ...engine.env(), QUEUE: queue, HANDLED_LOG: handledLog, ...extra });
      started.push(process);
      return process;
    };
    return {
      handledLog,
      /** Asks again whenever a worker appends to the handled log. */
      wake: changesOf(handledLog),
      /** A file that, while it exists, holds every run of a worker given it as HOLD_WHILE_EXISTS. */
      holdFile: () => {
        const file = join(dir, "hold");
        writeFileSync(file, "");
        return file;
      },
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
      await until(() => readHandled(run.handledLog).length >= 500, "500 events handled", { wake: run.wake });
      const handled = readHandled(run.handledLog);
      expect(handled).toHaveLength(500);
      expect(new Set(handled.map((record) => record.id)).size).toBe(500);
      expect(new Set(handled.map((record) => record.pid)).size).toBe(2);
      expect(await engine.jobCount("fanout")).toBe(500);
    });

    it("a worker SIGKILLed mid-run: the jobs it held run again on another worker, every event handled", async () => {
      const run = scenario("sigkill");
      const [url] = await run.receivers(1);
      // Its runs hold until it is killed: the hold file stays.
      const doomed = await run.worker({ HOLD_WHILE_EXISTS: run.holdFile(), CONCURRENCY: "4" });
      const delivered = deliverEvents([url as string], eventIds("evt_kill", 200));
      // Asked while the events arrive: an engine that expires a held job (pg-boss) could take it back before the end.
      const held = await until(async () => {
        const ids = await engine.runningEventIds("sigkill");
        return ids.length > 0 && ids;
      }, "the worker holding jobs");
      await doomed.stop("SIGKILL");
      await delivered;
      const survivor = await run.worker();
      await until(() => uniqueIds(run.handledLog) === 200, "every event handled", { wake: run.wake });
      const handled = readHandled(run.handledLog);
      expect(handled.filter((record) => record.pid !== survivor.pid)).toEqual([]);
      // The jobs the killed worker held come back (stalled-job recovery, expiry) for their second run.
      const rerun = handled.filter((record) => record.attempt === 2).map((record) => record.id);
      expect(rerun).toEqual(expect.arrayContaining(held));
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
      await until(() => answered.some((status) => status >= 500), "a 5xx from a receiver");
      await engine.startServer();
      const statuses = [...before, ...(await during)];
      expect(statuses.filter((status) => status === 200).length).toBe(100);
      await until(() => uniqueIds(run.handledLog) === 100, "every event handled", { wake: run.wake });
      expect(await engine.jobCount("outage")).toBe(100);
    });
  });
}
