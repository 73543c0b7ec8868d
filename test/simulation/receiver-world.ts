import { createReceiver, type Receiver, sign } from "@tidings/core";
import type { ReceiveResult } from "@tidings/core/adapter";
import type fc from "fast-check";
import type { VirtualClock } from "./clock";
import type { SimEvent } from "./model";
import type { Backing } from "./stores";
import {
  DRAIN_MS,
  LEASE_MS,
  ORDER_WAIT_MS,
  payloadOf,
  quiet,
  SimProcess,
  SimWorld,
  simOrder,
  type WorldOptions,
} from "./world";

export const SECRET = "whsec_simulation";
export const HANDLER_TIMEOUT_MS = 4_000;
export const MAX_CONCURRENT = 4;
/** How long the sender waits for an answer before it counts the attempt failed and retries. */
const SENDER_TIMEOUT_MS = 20_000;
/** The sender's backoff after a failed attempt: attempt n waits RETRY_DELAYS_MS[n - 1]; then it gives up. */
const RETRY_DELAYS_MS = [1_000, 4_000, 10_000, 30_000, 60_000];

interface Request {
  id: number;
  event: SimEvent;
  process: number;
  incarnation: number;
  attempt: number;
  done: boolean;
  timer: unknown;
}

/** A receiver process: its Receiver is rebuilt when it restarts, or when its `order` is switched (a rolling deploy). */
class ReceiverProcess extends SimProcess {
  receiver!: Receiver;
  ordered = true;
}

/**
 * Receivers (processes) sharing one store behind a FaultyStore, a sender that retries, handlers that take time and
 * fail, all on one virtual clock; every store answer, handler run and HTTP answer is told to the reference model.
 */
export class ReceiverWorld extends SimWorld<ReceiverProcess> {
  readonly #requests = new Map<number, Request>();
  #requestSeq = 0;

  constructor(options: WorldOptions, scheduler: fc.Scheduler, clock: VirtualClock, backing: Backing) {
    const processes = Array.from({ length: options.processes }, (_, id) => new ReceiverProcess(id));
    super(options, scheduler, clock, backing, processes, (key) => this.byId.get(key.slice("event:".length)));
    for (const process of this.processes) this.#boot(process);
  }

  #boot(process: ReceiverProcess): void {
    const incarnation = process.incarnation;
    const ordered = process.ordered;
    const model = this.model;
    process.receiver = createReceiver({
      secret: SECRET,
      store: this.storeFor(process),
      now: this.clock.wallNow,
      leaseMs: LEASE_MS,
      handlerTimeoutMs: HANDLER_TIMEOUT_MS,
      maxConcurrentDeliveries: MAX_CONCURRENT,
      logger: quiet,
      ...(ordered && { order: simOrder, orderWaitMs: ORDER_WAIT_MS }),
    })
      .onAny((event, context) => {
        const request = this.#requests.get(Number((context.headers as Record<string, string>)["x-sim-request"]));
        const sim = this.byId.get(String((event as { id?: unknown }).id));
        if (!request || !sim) {
          model.violation(`handlers ran for an event the sender never sent: ${JSON.stringify(event)}`);
          return;
        }
        return this.runHandlers(process, incarnation, sim, request.id, context.deliveryKey, ordered);
      })
      .onError((_error, info) => {
        if (process.incarnation !== incarnation) return;
        const request = Number((info.context?.headers as Record<string, string> | undefined)?.["x-sim-request"]);
        if (!Number.isFinite(request)) return;
        model.note(`p${process.id} onError ${info.code} ${info.status} (request ${request})`);
        if (info.code === "store_unavailable") model.doneMarkLost(request);
      });
  }

  /**
   * A rolling deploy that turns `order` off (or back on) in one process: requests in flight finish on the Receiver
   * that took them; new ones reach the new one. Both share the store, as the two versions of a deploy do.
   */
  switchOrder(index: number): void {
    const process = this.process(index);
    process.ordered = !process.ordered;
    this.model.note(`p${process.id} redeployed with order ${process.ordered ? "on" : "off"}`);
    this.#boot(process);
  }

  /** The sender posts one attempt of `event` to `process`. */
  send(index: number, processIndex: number, cause: string, attempt = 1): void {
    const event = this.options.events[index];
    if (!event) return;
    const process = this.process(processIndex);
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
    const rawBody = new TextEncoder().encode(JSON.stringify(payloadOf(event)));
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
    const process = this.process(request.process);
    const deliver = () => {
      if (process.incarnation !== request.incarnation) return;
      this.model.note(`p${process.id} answered request ${request.id}: ${result.status} ${result.code}`);
      this.model.answered(request.id);
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
    const next = (request.process + 1) % this.processes.length;
    this.clock.setTimeout(() => this.send(request.event.index, next, "retry", request.attempt + 1), delay);
  }

  kill(index: number): void {
    const process = this.process(index);
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

  /** Lets every retry, lease and timer play out, then checks that each live process has all its slots free. */
  async drain(): Promise<void> {
    await this.advance(DRAIN_MS);
    this.model.checkQuiet();
    for (const process of this.processes) {
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
