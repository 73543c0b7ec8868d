import { createReceiver, MemoryStore, messageStatusOrder, type Receiver, sign } from "@tidings/core";
import type { ReceiveResult } from "@tidings/core/adapter";
import type fc from "fast-check";
import { VirtualClock } from "./clock";
import { FaultyStore, type StoreCall, type StoreFault } from "./faulty-store";
import { ReferenceModel, type SimEvent } from "./model";

export const SECRET = "whsec_simulation";
export const LEASE_MS = 10_000;
export const HANDLER_TIMEOUT_MS = 4_000;
const ORDER_WAIT_MS = 1_000;
export const MAX_CONCURRENT = 4;
/** How long the sender waits for an answer before it counts the attempt failed and retries. */
const SENDER_TIMEOUT_MS = 20_000;
/** The sender's backoff after a failed attempt: attempt n waits RETRY_DELAYS_MS[n - 1]; then it gives up. */
const RETRY_DELAYS_MS = [1_000, 4_000, 10_000, 30_000, 60_000];
/** How long a `slow` store fault delays each call. */
const SLOW_CALL_MS = 3_000;
/** After the schedule, how much virtual time is let pass for retries, leases and timers to play out. */
const DRAIN_MS = 60 * 60_000;
const START = Date.parse("2026-03-01T12:00:00Z");
const quiet = { error() {}, warn() {} };
const never = new Promise<never>(() => {});

/** What one run of an event's handlers does: how long it takes, and whether it throws. */
export interface HandlerStep {
  ms: number;
  fails: boolean;
}

export type FaultKind = StoreFault["kind"];
export type Target = number | "all";

interface FaultWindow {
  target: Target;
  kind: FaultKind;
  until: number;
  ended: Promise<void>;
}

interface Request {
  id: number;
  event: SimEvent;
  process: number;
  incarnation: number;
  attempt: number;
  done: boolean;
  timer: unknown;
}

class SimProcess {
  incarnation = 0;
  pausedUntil = 0;
  #resume: Promise<void> | undefined;
  #wake: () => void = () => {};
  receiver!: Receiver;

  constructor(readonly id: number) {}

  /** Undefined while the process runs; a promise that settles when it resumes, or never for a dead incarnation. */
  awake(incarnation: number): Promise<void> | undefined {
    if (incarnation !== this.incarnation) return never;
    return this.#resume;
  }

  pause(clock: VirtualClock, ms: number): void {
    const until = clock.now + ms;
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    if (!this.#resume) {
      this.#resume = new Promise((resolve) => {
        this.#wake = resolve;
      });
    }
    const incarnation = this.incarnation;
    clock.setTimeout(() => {
      if (this.incarnation !== incarnation || clock.now < this.pausedUntil || !this.#resume) return;
      this.#resume = undefined;
      this.#wake();
    }, ms);
  }

  restart(): void {
    this.incarnation++;
    this.pausedUntil = 0;
    this.#resume = undefined;
  }
}

/** Options a schedule is run with, drawn by fast-check with the commands. */
export interface WorldOptions {
  processes: number;
  /** Store answers come back in the order fast-check's scheduler picks (else MemoryStore answers in the same turn). */
  asyncStore: boolean;
  events: SimEvent[];
  /** Per event, what its first, second… handler run does (the last repeats). */
  steps: HandlerStep[][];
}

/**
 * Receivers (processes) sharing one store behind a FaultyStore, a sender that retries, handlers that take time and
 * fail, all on one virtual clock; every store answer, handler run and HTTP answer is told to the reference model.
 */
export class ReceiverWorld {
  readonly clock = new VirtualClock(START);
  readonly model: ReferenceModel;
  readonly #store: MemoryStore;
  readonly #processes: SimProcess[];
  readonly #requests = new Map<number, Request>();
  readonly #faults: FaultWindow[] = [];
  readonly #byId: Map<string, SimEvent>;
  #requestSeq = 0;

  constructor(
    readonly options: WorldOptions,
    readonly scheduler: fc.Scheduler,
  ) {
    this.#byId = new Map(options.events.map((event) => [event.id, event]));
    this.model = new ReferenceModel(this.clock.wallNow, LEASE_MS, (key) => this.#byId.get(key.slice("event:".length)));
    this.#store = new MemoryStore({ now: this.clock.wallNow, logger: quiet });
    this.#processes = Array.from({ length: options.processes }, (_, id) => new SimProcess(id));
    for (const process of this.#processes) this.#boot(process);
  }

  readonly settle = async (): Promise<void> => {
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.scheduler.count() === 0) return;
      await this.scheduler.waitOne();
    }
  };

  #boot(process: SimProcess): void {
    const incarnation = process.incarnation;
    const store = new FaultyStore(this.#store, {
      fault: (call) => this.#faultFor(process.id, call),
      before: (call) => {
        const awake = process.awake(incarnation);
        if (!this.options.asyncStore) return awake;
        const label = `p${process.id} ${call.method} ${call.key}`;
        return (awake ?? Promise.resolve()).then(() => this.scheduler.schedule(Promise.resolve(), label));
      },
      observe: (call, answer) => this.model.observe(process.id, call, answer),
    });
    const model = this.model;
    process.receiver = createReceiver({
      secret: SECRET,
      store,
      now: this.clock.wallNow,
      leaseMs: LEASE_MS,
      handlerTimeoutMs: HANDLER_TIMEOUT_MS,
      orderWaitMs: ORDER_WAIT_MS,
      maxConcurrentDeliveries: MAX_CONCURRENT,
      logger: quiet,
      order: {
        key: (event) => {
          if ((event as { data?: { poison?: unknown } }).data?.poison) throw new Error("order.key threw");
          return messageStatusOrder.key(event);
        },
        position: messageStatusOrder.position,
      },
    })
      .onAny((event, context) => {
        // A killed process runs nothing more.
        if (process.incarnation !== incarnation) return never;
        const request = this.#requests.get(Number((context.headers as Record<string, string>)["x-sim-request"]));
        const sim = this.#byId.get(String((event as { id?: unknown }).id));
        if (!request || !sim) {
          model.violation(`handlers ran for an event the sender never sent: ${JSON.stringify(event)}`);
          return;
        }
        const runs = model.runs.filter((run) => run.event.id === sim.id).length;
        const steps = this.options.steps[sim.index] ?? [];
        const step = steps[Math.min(runs, steps.length - 1)] ?? { ms: 0, fails: false };
        const run = model.startRun(sim, process.id, request.id, context.deliveryKey);
        const finish = () => {
          model.endRun(run, !step.fails);
          if (step.fails) throw new Error("the handler failed, as scheduled");
        };
        if (step.ms === 0 && process.awake(incarnation) === undefined) return finish();
        return (async () => {
          if (step.ms > 0) await new Promise((resolve) => this.clock.setTimeout(() => resolve(undefined), step.ms));
          await process.awake(incarnation);
          return finish();
        })();
      })
      .onError((_error, info) => {
        if (process.incarnation !== incarnation) return;
        const request = Number((info.context?.headers as Record<string, string> | undefined)?.["x-sim-request"]);
        if (!Number.isFinite(request)) return;
        model.note(`p${process.id} onError ${info.code} ${info.status} (request ${request})`);
        if (info.code === "store_unavailable") model.doneMarkLost(request);
      });
  }

  #faultFor(process: number, _call: StoreCall): StoreFault | undefined {
    const now = this.clock.now;
    const window = this.#faults.find((f) => f.until > now && (f.target === "all" || f.target === process));
    if (!window) return undefined;
    switch (window.kind) {
      case "fail":
        return { kind: "fail" };
      case "lost-reply":
        return { kind: "lost-reply" };
      case "hang":
        return { kind: "hang", until: window.ended };
      case "slow":
        return { kind: "slow", until: new Promise((resolve) => this.clock.setTimeout(resolve, SLOW_CALL_MS)) };
    }
  }

  /** The sender posts one attempt of `event` to `process`. */
  send(index: number, processIndex: number, cause: string, attempt = 1): void {
    const event = this.options.events[index];
    if (!event) return;
    const process = this.#processes[processIndex % this.#processes.length] as SimProcess;
    const id = ++this.#requestSeq;
    const request: Request = {
      id,
      event,
      process: process.id,
      incarnation: process.incarnation,
      attempt,
      done: false,
      timer: undefined,
    };
    this.#requests.set(id, request);
    const status = event.type.slice("message.".length);
    const poison = event.type === "message.poison";
    const payload = {
      id: event.id,
      type: poison ? "message.sent" : event.type,
      data: { id: event.object, status, channel: "sms", ...(poison && { poison: true }) },
    };
    const rawBody = new TextEncoder().encode(JSON.stringify(payload));
    const headers = { "service-signature": sign(rawBody, SECRET), "x-sim-request": String(id) };
    this.model.note(`send ${event.id} → p${process.id} (request ${id}, ${cause}, attempt ${attempt})`);
    request.timer = this.clock.setTimeout(() => {
      if (request.done) return;
      request.done = true;
      this.model.note(`request ${id} timed out at the sender`);
      this.#retry(request);
    }, SENDER_TIMEOUT_MS);
    let answer: Promise<ReceiveResult>;
    try {
      answer = process.receiver.handle({ method: "POST", headers, readBody: () => rawBody });
    } catch (error) {
      this.model.violation(`handle() threw for request ${id}: ${String(error)}`);
      return;
    }
    answer.then(
      (result) => this.#answered(request, result),
      (error: unknown) => this.model.violation(`handle() rejected for request ${id} (${event.id}): ${String(error)}`),
    );
  }

  #answered(request: Request, result: ReceiveResult): void {
    const process = this.#processes[request.process] as SimProcess;
    const deliver = () => {
      if (process.incarnation !== request.incarnation) return;
      this.model.note(`p${process.id} answered request ${request.id}: ${result.status} ${result.code}`);
      if (result.status >= 200 && result.status < 300) {
        this.model.acknowledged(request.id, request.event, result.code);
      }
      if (request.done) return;
      request.done = true;
      this.clock.clearTimeout(request.timer);
      if (result.status >= 300) this.#retry(request);
    };
    const awake = process.awake(request.incarnation);
    if (awake) awake.then(deliver);
    else deliver();
  }

  #retry(request: Request): void {
    const delay = RETRY_DELAYS_MS[request.attempt - 1];
    if (delay === undefined) {
      this.model.note(`sender gives up on ${request.event.id} after request ${request.id}`);
      return;
    }
    const next = (request.process + 1) % this.#processes.length;
    this.clock.setTimeout(() => this.send(request.event.index, next, "retry", request.attempt + 1), delay);
  }

  async advance(ms: number): Promise<void> {
    await this.clock.advance(ms, this.settle);
  }

  storeFault(target: Target, kind: FaultKind, ms: number): void {
    let end: () => void = () => {};
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    const wall = this.clock.wallNow();
    const window: FaultWindow = { target, kind, until: this.clock.now + ms, ended };
    this.#faults.push(window);
    this.clock.setTimeout(end, ms);
    this.model.trouble(target, wall, wall + ms, `store ${kind} for ${ms} ms`);
    this.model.note(`store ${kind} for ${target === "all" ? "every process" : `p${target}`}, ${ms} ms`);
  }

  kill(index: number): void {
    const process = this.#processes[index % this.#processes.length] as SimProcess;
    this.model.note(`p${process.id} killed and restarted`);
    this.model.killRuns(process.id);
    process.restart();
    for (const request of this.#requests.values()) {
      if (request.process !== process.id || request.done) continue;
      request.done = true;
      this.clock.clearTimeout(request.timer);
      this.#retry(request);
    }
    this.#boot(process);
  }

  pause(index: number, ms: number): void {
    const process = this.#processes[index % this.#processes.length] as SimProcess;
    const wall = this.clock.wallNow();
    process.pause(this.clock, ms);
    this.model.trouble(process.id, wall, wall + ms, `process paused for ${ms} ms`);
    this.model.note(`p${process.id} paused for ${ms} ms`);
  }

  jumpClock(ms: number): void {
    const wall = this.clock.wallNow();
    this.clock.jumped += ms;
    this.model.trouble("all", wall, wall + ms, `clock jump of ${ms} ms`);
    this.model.note(`wall clock jumps ${ms} ms`);
  }

  /** Lets every retry, lease and timer play out, then checks that each live process has all its slots free. */
  async drain(): Promise<void> {
    await this.advance(DRAIN_MS);
    for (const process of this.#processes) {
      let open: (body: Uint8Array) => void = () => {};
      const body = new Promise<Uint8Array>((resolve) => {
        open = resolve;
      });
      const answers: ReceiveResult[] = [];
      for (let i = 0; i < MAX_CONCURRENT; i++) {
        process.receiver.handle({ method: "POST", headers: {}, readBody: () => body }).then((result) => {
          answers.push(result);
        });
      }
      await this.settle();
      const refused = answers.filter((answer) => answer.code === "overloaded").length;
      if (refused > 0) {
        this.model.violation(
          `p${process.id} kept ${refused} of its ${MAX_CONCURRENT} slots after every delivery was answered`,
        );
      }
      open(new Uint8Array());
      await this.settle();
    }
  }
}
