import { createHash } from "node:crypto";
import { sign as octokitSign } from "@octokit/webhooks-methods";
import {
  createReceiver,
  type DeliveryContext,
  type EventMap,
  MemoryStore,
  messageStatusOrder,
  sign,
} from "@tidings/core";
import type {
  Enqueuer,
  QueueAdmin,
  QueueWorker,
  SharedEnqueueOptions,
  SharedQueueDefaults,
  SharedWorkerOptions,
  WorkerContext,
} from "@tidings/core/dispatch";
import { github } from "@tidings/core/schemes";
import { afterEach, describe, expect, it } from "vitest";
import { eventBody, QUEUE_SECRET, tidings } from "./queue-scenarios";
import { until } from "./wait";

export type EnqueueSettings = Pick<SharedEnqueueOptions, "attempts" | "keepVerifiedBody" | "timeoutMs">;

/** What both engine packages' workers expose, besides the handler registry every `QueueWorker` has. */
export type CommonWorker = QueueWorker & {
  readonly ready: Promise<void>;
  readonly engineWorker: object;
  close(): Promise<void>;
};

/**
 * The surface `@tidings/bullmq` and `@tidings/pg-boss` share: each package, imported whole, must be one of these, so
 * a user moves from one engine to the other by changing the import and the engine handle, nothing else.
 */
export interface QueuePackage<Target, Options extends SharedEnqueueOptions, WorkerOptions extends SharedWorkerOptions> {
  QUEUE_DEFAULTS: SharedQueueDefaults;
  enqueueTo(target: Target, options?: Options): Enqueuer;
  createWorker(options: WorkerOptions): CommonWorker;
  jobIdFor(deliveryKey: string): string;
  /** Async on both: it connects before it resolves. */
  openQueueAdmin(options: never): Promise<QueueAdmin>;
}

export interface JobView {
  state: string;
  data: Record<string, unknown>;
  /** The last error the engine kept, for a failed job. */
  error?: string;
}

/** What the engine stored with a job, read back from it, in the shared options' names and units. */
export type StoredJobSettings = Required<
  Pick<SharedEnqueueOptions, "attempts" | "retryDelaySeconds" | "retryBackoff" | "keepCompletedSeconds">
>;

/** One fresh queue of an engine, as the semantics suite drives it through the package's own functions. */
export interface OpenQueue<Target, WorkerOptions> {
  name: string;
  /** What `enqueueTo` takes for this queue. */
  target: Target;
  /** `createWorker`'s options for this queue, with a quiet logger. */
  workerOptions: WorkerOptions;
  /** Whether the engine's side of the worker (`engineWorker`) takes jobs: not before it started, nor once it stops. */
  takesJobs(worker: CommonWorker): Promise<boolean>;
  job(id: string): Promise<JobView | undefined>;
  settingsOf(id: string): Promise<StoredJobSettings | undefined>;
  jobCount(): Promise<number>;
  /** Adds a job that enqueueTo did not write. */
  addStray(id: string): Promise<void>;
  /** `--redis URL` or `--postgres URL`. */
  cliTarget: string[];
  /** The package's `openQueueAdmin` on this queue. */
  openAdmin(): Promise<QueueAdmin>;
  close(): Promise<void>;
}

export interface EngineSemantics<
  Target,
  Options extends SharedEnqueueOptions,
  WorkerOptions extends SharedWorkerOptions,
> {
  name: string;
  /** The key of the engine's own options: `bullmq`, `pgBoss`. */
  group: string;
  /** The package, imported whole. */
  pkg: QueuePackage<Target, Options, WorkerOptions>;
  open(): Promise<OpenQueue<Target, WorkerOptions>>;
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
}

const quiet = { error() {} };
/** Retries without delay, in the options' shared names: the same on every engine. */
const retryAtOnce = { retryDelaySeconds: 0, retryBackoff: "fixed" } as const satisfies SharedEnqueueOptions;

function delivery(id: string) {
  const body = eventBody(id);
  return { rawBody: new TextEncoder().encode(body), headers: { "service-signature": sign(body, QUEUE_SECRET) } };
}

const digest = (id: string) => createHash("sha256").update(eventBody(id)).digest("hex");

/** What every engine package must do, on its real engine: enqueue, dedup, bounded enqueue, worker semantics, CLI. */
export function describeQueueSemantics<
  Target,
  Options extends SharedEnqueueOptions,
  WorkerOptions extends SharedWorkerOptions,
>(engine: EngineSemantics<Target, Options, WorkerOptions>): void {
  const { pkg } = engine;
  const closing: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const thing of closing.splice(0)) await thing.close();
  });

  async function open() {
    const queue = await engine.open();
    closing.push(queue);
    const enqueuer = (settings?: EnqueueSettings) =>
      pkg.enqueueTo(queue.target, { ...retryAtOnce, ...settings } as Options);
    const receiver = (settings?: EnqueueSettings) =>
      createReceiver({ secret: QUEUE_SECRET, logger: quiet }).onAny(enqueuer(settings));
    const worker = () => {
      const created = pkg.createWorker(queue.workerOptions);
      closing.unshift(created);
      return created;
    };
    const settled = async (id: string) => {
      return until(async () => {
        const job = await queue.job(id);
        return (job?.state === "completed" || job?.state === "failed") && job;
      }, `job ${id} completed or failed`);
    };
    return { queue, enqueuer, receiver, worker, settled };
  }

  describe(`enqueueTo (${engine.name})`, () => {
    it("adds one job per event, its id from the delivery key, holding the verified event and the body's digest", async () => {
      const { queue, receiver } = await open();
      expect((await receiver().receive(delivery("evt_1"))).status).toBe(200);
      expect((await queue.job(pkg.jobIdFor("event:evt_1")))?.data).toEqual({
        event: JSON.parse(eventBody("evt_1")),
        type: "message.delivered",
        deliveryKey: "event:evt_1",
        timestamp: expect.any(Number),
        secretIndex: 0,
        verifiedBodySha256: digest("evt_1"),
      });
    });

    it("keeps the raw body only when asked", async () => {
      const { queue, receiver } = await open();
      await receiver({ keepVerifiedBody: true }).receive(delivery("evt_raw"));
      const data = (await queue.job(pkg.jobIdFor("event:evt_raw")))?.data;
      expect(Buffer.from(data?.verifiedBody as string, "base64").toString()).toBe(eventBody("evt_raw"));
    });

    it("one job when each receiver has its own store, and when a receiver forgot the event: the engine refuses the second", async () => {
      const { queue, receiver, worker } = await open();
      const results = await Promise.all(
        [receiver(), receiver(), receiver()].map((r) => r.receive(delivery("evt_dup"))),
      );
      expect(results.map((result) => result.status)).toEqual([200, 200, 200]);
      const handled: string[] = [];
      worker().onAny((_event, context) => {
        handled.push(context.deliveryKey);
      });
      await until(() => handled.length > 0, "the event handled");
      expect((await receiver().receive(delivery("evt_dup"))).status).toBe(200);
      expect(await queue.jobCount()).toBe(1);
      // The worker takes one job at a time, oldest first: once a later event is handled, a second job for the first
      // would have been handled before it.
      await receiver().receive(delivery("evt_after"));
      await until(() => handled.length > 1, "the later event handled");
      expect(handled).toEqual(["event:evt_dup", "event:evt_after"]);
    });

    it("server down: the enqueue gives up after timeoutMs, the Receiver answers 500 and releases its claim", async () => {
      const { queue, receiver } = await open();
      const receiving = receiver({ timeoutMs: 300 });
      await receiving.receive(delivery("evt_warm")); // the queue exists and the client is connected
      const errors: string[] = [];
      receiving.onError((error) => errors.push((error as Error).message));
      await engine.stopServer();
      try {
        const during = await receiving.receive(delivery("evt_down"));
        expect([during.status, JSON.parse(during.body).error.code]).toEqual([500, "handler_failed"]);
        expect(errors).toHaveLength(1);
      } finally {
        await engine.startServer();
      }
      // Released: the sender's retry is processed (a kept claim would answer 409).
      await until(async () => (await receiving.receive(delivery("evt_down"))).status === 200, "the retry answered 200");
      expect(await queue.job(pkg.jobIdFor("event:evt_down"))).toBeDefined();
    });
  });

  describe(`createWorker (${engine.name})`, () => {
    it("hands each handler the event and its context: type, deliveryKey, attempt, jobId, the body's digest", async () => {
      const { receiver, worker } = await open();
      await receiver().receive(delivery("evt_ctx"));
      const seen: [unknown, WorkerContext][] = [];
      worker().on("message.delivered", (event, context) => {
        seen.push([event.data.id, context]);
      });
      await until(() => seen.length > 0, "the job handled");
      expect(seen).toHaveLength(1);
      expect(seen[0]).toEqual([
        "msg_evt_ctx",
        {
          type: "message.delivered",
          deliveryKey: "event:evt_ctx",
          timestamp: expect.any(Number),
          secretIndex: 0,
          attempt: 1,
          jobId: pkg.jobIdFor("event:evt_ctx"),
          verifiedBodySha256: digest("evt_ctx"),
          idempotencyKey: expect.any(Function),
        },
      ]);
    });

    it("another sender's scheme: a GitHub delivery signed by Octokit reaches the worker's family and action handlers once", async () => {
      const { queue, enqueuer, worker } = await open();
      const secret = "github queue secret";
      const receiver = createReceiver({ scheme: github(), secret, logger: quiet }).onAny(enqueuer());
      const body = JSON.stringify({ action: "opened", issue: { number: 7 } });
      const headers = {
        "x-github-event": "issues",
        "x-github-delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
        "x-hub-signature-256": await octokitSign(secret, body),
      };
      const deliver = () => receiver.receive({ rawBody: new TextEncoder().encode(body), headers });
      expect((await deliver()).status).toBe(200);
      expect((await deliver()).status).toBe(200);
      const seen: string[] = [];
      (worker() as unknown as QueueWorker<EventMap>)
        .on("issues", (event, context) => {
          seen.push(`issues ${context.type} ${(event as { issue: { number: number } }).issue.number}`);
        })
        .on("issues.opened", (_event, context) => {
          seen.push(`issues.opened ${context.deliveryKey}`);
        })
        .on("issues.closed", () => {
          seen.push("issues.closed");
        });
      await until(() => seen.length > 1, "both handlers run");
      const hex = (await octokitSign(secret, body)).slice("sha256=".length);
      expect(seen).toEqual(["issues issues.opened 7", `issues.opened event:github:${hex}`]);
      expect(await queue.jobCount()).toBe(1);
    });

    it("a handler failing twice then succeeding: runs 1, 2, 3, one success, the job completed", async () => {
      const { receiver, worker, settled } = await open();
      await receiver().receive(delivery("evt_flaky"));
      const attempts: number[] = [];
      const reported: unknown[] = [];
      let succeeded = 0;
      worker()
        .on("message.delivered", (_event, { attempt }) => {
          attempts.push(attempt);
          if (attempt < 3) throw new Error(`attempt ${attempt} failed`);
          succeeded++;
        })
        .onError((_error, info) => reported.push([info.code, info.attempt, info.jobId]));
      const jobId = pkg.jobIdFor("event:evt_flaky");
      expect((await settled(jobId)).state).toBe("completed");
      expect(attempts).toEqual([1, 2, 3]);
      expect(succeeded).toBe(1);
      expect(reported).toEqual([
        ["handler_failed", 1, jobId],
        ["handler_failed", 2, jobId],
      ]);
    });

    it("every handler runs even when one fails; the job fails with both errors, and every run runs them all", async () => {
      const { receiver, worker, settled } = await open();
      await receiver({ attempts: 2 }).receive(delivery("evt_both"));
      const runs: string[] = [];
      worker()
        .on("message.delivered", () => {
          runs.push("a");
          throw new Error("a broke");
        })
        .onAny(async () => {
          runs.push("b");
          throw new Error("b broke");
        });
      const job = await settled(pkg.jobIdFor("event:evt_both"));
      expect([job.state, job.error]).toEqual(["failed", "2 handlers failed: a broke; b broke"]);
      expect(runs).toEqual(["a", "b", "a", "b"]);
    });

    it("a job that enqueueTo did not write fails with a clear error", async () => {
      const { queue, worker } = await open();
      const id = pkg.jobIdFor("stray");
      await queue.addStray(id);
      const errors: unknown[] = [];
      worker().onError((error, info) => errors.push([info.code, (error as Error).message]));
      await until(() => errors.length > 0, "the stray job reported");
      expect(errors).toEqual([["invalid_job", `Job ${id} does not hold a delivery enqueued by enqueueTo()`]]);
    });

    it("close() lets the running job finish before it resolves", async () => {
      const { queue, receiver, worker } = await open();
      await receiver().receive(delivery("evt_close"));
      const steps: string[] = [];
      const running = worker();
      running.onAny(async () => {
        steps.push("started");
        // Still running once the engine's worker takes no more jobs: close() was called and waits for this run.
        await until(async () => !(await queue.takesJobs(running)), "the engine's worker taking no more jobs");
        steps.push("finished");
      });
      await until(() => steps.length > 0, "the job started");
      expect(steps).toEqual(["started"]);
      await running.close();
      steps.push("closed");
      expect(steps).toEqual(["started", "finished", "closed"]);
      expect((await queue.job(pkg.jobIdFor("event:evt_close")))?.state).toBe("completed");
    });
  });

  describe(`the surface both packages share (${engine.name})`, () => {
    const context = (deliveryKey: string): DeliveryContext => ({
      type: "message.delivered",
      deliveryKey,
      idempotencyKey: () => "unused",
      timestamp: 1,
      secretIndex: 0,
      verifiedBody: new Uint8Array(),
      headers: {},
    });

    it("QUEUE_DEFAULTS is what the engine stores: attempts, retry delay and backoff, how long a completed job is kept", async () => {
      const { queue } = await open();
      await pkg.enqueueTo(queue.target)({ id: "evt_defaults" }, context("event:evt_defaults"));
      const { attempts, retryDelaySeconds, retryBackoff, keepCompletedSeconds } = pkg.QUEUE_DEFAULTS;
      expect(await queue.settingsOf(pkg.jobIdFor("event:evt_defaults"))).toEqual({
        attempts,
        retryDelaySeconds,
        retryBackoff,
        keepCompletedSeconds,
      });
      // Both keep a completed job at least as long as a Receiver remembers a delivery (24 h), or dedup would end.
      expect(pkg.QUEUE_DEFAULTS.keepCompletedSeconds).toBeGreaterThanOrEqual(86_400);
    });

    it("the shared options, under the same names and in the same units on every engine, are what it stores", async () => {
      const { queue } = await open();
      const chosen = [
        { attempts: 2, retryDelaySeconds: 0, retryBackoff: "fixed", keepCompletedSeconds: 3600 },
        { attempts: 7, retryDelaySeconds: 30, retryBackoff: "exponential", keepCompletedSeconds: 172_800 },
      ] as const;
      for (const [index, settings] of chosen.entries()) {
        await pkg.enqueueTo(queue.target, settings as Options)({ id: `evt_${index}` }, context(`event:evt_${index}`));
        expect(await queue.settingsOf(pkg.jobIdFor(`event:evt_${index}`))).toEqual(settings);
      }
    });

    it("refuses at setup, with a TypeError naming what to write, an option no engine takes, or one out of range", async () => {
      const { queue } = await open();
      const enqueueWith = (options: object) => () => pkg.enqueueTo(queue.target, options as Options);
      expect(enqueueWith({ attemps: 3 })).toThrow(
        /`attemps` is not an option every engine takes \(timeoutMs, attempts,/,
      );
      expect(enqueueWith({ retryBackoff: true })).toThrow(
        /retryBackoff must be "exponential" or "fixed" \(`true` is now "exponential"\)/,
      );
      expect(enqueueWith({ retryDelaySeconds: 0.5 })).toThrow(/retryDelaySeconds must be 0 or a positive whole number/);
      expect(enqueueWith({ attempts: 0 })).toThrow(/attempts must be a positive whole number/);
      const workerWith = (options: object) => () => pkg.createWorker({ ...queue.workerOptions, ...options });
      expect(workerWith({ pollMs: 5 })).toThrow(
        new RegExp(`\`pollMs\` is not an option every engine takes .*, it goes in \`${engine.group}: \\{ pollMs \\}\``),
      );
      expect(workerWith({ concurrency: 0 })).toThrow(/concurrency must be a positive whole number/);
    });

    it("core's worker options reach the worker: `order` without `store` is refused, a bad `leaseMs` too", async () => {
      const { queue } = await open();
      const workerWith = (options: object) => () => pkg.createWorker({ ...queue.workerOptions, ...options });
      expect(workerWith({ order: messageStatusOrder })).toThrow(/`order` needs `store`/);
      expect(workerWith({ order: messageStatusOrder, store: new MemoryStore(), leaseMs: -1 })).toThrow(/leaseMs/);
    });

    it("a worker: ready resolves once it takes jobs, engineWorker is the engine's side, close() stops it", async () => {
      const { queue, enqueuer, worker } = await open();
      const handled: string[] = [];
      const created = worker().onAny((_event, { deliveryKey }) => {
        handled.push(deliveryKey);
      });
      await expect(created.ready).resolves.toBeUndefined();
      expect(created.engineWorker).toBeTypeOf("object");
      expect(await queue.takesJobs(created)).toBe(true);
      await enqueuer()({ id: "evt_ready" }, context("event:evt_ready"));
      await until(() => handled.length > 0, "the job handled");
      expect(handled).toEqual(["event:evt_ready"]);
      await created.close();
      expect(await queue.takesJobs(created)).toBe(false);
    });
  });

  describe(`tidings queue (${engine.name})`, () => {
    it("failed lists a job that used up its attempts; retry re-runs it once fixed; stats counts", async () => {
      const { queue, receiver, worker, settled } = await open();
      await receiver({ attempts: 2 }).receive(delivery("evt_dead"));
      let broken = true;
      const handled: string[] = [];
      worker().onAny((_event, { deliveryKey }) => {
        if (broken) throw new Error("downstream API refused the call");
        handled.push(deliveryKey);
      });
      const jobId = pkg.jobIdFor("event:evt_dead");
      expect((await settled(jobId)).state).toBe("failed");
      const target = [...queue.cliTarget, "--queue", queue.name];
      const failed = await tidings(["queue", "failed", ...target]);
      expect(failed.code, failed.stderr).toBe(0);
      expect(failed.stdout).toMatch(/^id\s+type\s+attempts\s+last error\n/);
      expect(failed.stdout).toContain(jobId);
      expect(failed.stdout).toMatch(/message\.delivered\s+2\s+downstream API refused the call\n$/);
      expect((await tidings(["queue", "stats", ...target])).stdout).toMatch(/^failed\s+1\b/m);

      broken = false;
      const retried = await tidings(["queue", "retry", jobId, ...target]);
      expect([retried.code, retried.stdout]).toEqual([0, `1 job(s) back in ${queue.name}\n`]);
      await until(() => handled.length > 0, "the retried job handled");
      expect(handled).toEqual(["event:evt_dead"]);
      await settled(jobId);
      const stats = (await tidings(["queue", "stats", ...target])).stdout;
      for (const [state, count] of Object.entries({ waiting: 0, active: 0, completed: 1, failed: 0 })) {
        expect(stats).toMatch(new RegExp(`^${state}\\s+${count}\\b`, "m"));
      }
      expect((await tidings(["queue", "failed", ...target])).stdout).toBe(`no failed jobs in ${queue.name}\n`);
      expect((await tidings(["queue", "retry", "--all", ...target])).stdout).toBe(`0 job(s) back in ${queue.name}\n`);
    });

    it("failed names each job's delivery key as the Receiver did, whether the job holds its event or its JSON text", async () => {
      const { queue, receiver, worker, settled } = await open();
      // A backslash the key keeps as it is, and a lone surrogate, which makes the job hold its event as JSON text.
      const keys = ["event:evt_a\\nb", "event:evt_\uD800"];
      for (const key of keys) {
        expect((await receiver({ attempts: 1 }).receive(delivery(key.slice("event:".length)))).status).toBe(200);
      }
      expect(typeof (await queue.job(pkg.jobIdFor(keys[1] as string)))?.data.event).toBe("string");
      worker().onAny(() => {
        throw new Error("downstream API refused the call");
      });
      for (const key of keys) expect((await settled(pkg.jobIdFor(key))).state).toBe("failed");
      const admin = await queue.openAdmin();
      try {
        expect((await admin.failed()).map(({ deliveryKey }) => deliveryKey).sort()).toEqual([...keys].sort());
      } finally {
        await admin.close();
      }
    });
  });
}
