import type { PGlite } from "@electric-sql/pglite";
import { createReceiver, type MessageEvents, messageStatusOrder, type Receiver, sign } from "@tidings/core";
import type { ReceiveResult, TransactionStatements, Transactions } from "@tidings/core/adapter";
import {
  type JobOutcome,
  type JobRun,
  QueueWorker,
  type QueueWorkerOptions,
  toQueuedDelivery,
} from "@tidings/core/dispatch";
import { PostgresStore, pgliteTransactions } from "@tidings/postgres";
import type { VirtualClock } from "./clock";
import { EffectsModel } from "./effects-model";
import { StoreFaultError } from "./faulty-store";
import type { SimEvent } from "./model";
import { LEASE_MS, never, ORDER_WAIT_MS, payloadOf, quiet, ScheduledFailure } from "./world";

/**
 * What happens to one run between its handler's write and its commit: `throws` (the handler throws after writing),
 * `kill-after-write` (the process dies there: its connection drops, so the transaction rolls back, and it settles
 * nothing), `mark-fails` (the store's statement in the transaction fails), `lease-lapses` (the wall clock jumps past
 * the claim's lease, so the fenced done mark is refused), `commit-reply-lost` (COMMIT applied, its answer lost),
 * `kill-after-commit` (the process dies once committed, before it answers or completes the job).
 */
export const TX_FAULTS = [
  "none",
  "throws",
  "kill-after-write",
  "mark-fails",
  "lease-lapses",
  "commit-reply-lost",
  "kill-after-commit",
] as const;
export type TxFault = (typeof TX_FAULTS)[number];

export type TxSide = "receiver" | "worker";

export interface TxWorldOptions {
  side: TxSide;
  /** With `order: messageStatusOrder`: the claim, done mark and position; without, a worker writes an inbox row. */
  ordered: boolean;
  /**
   * False: no `transactions`, the handler writing its row on its own, as an at-least-once handler does: what the
   * model must catch (a row committed with no done mark, and applied again on the rerun).
   */
  transactional?: boolean;
  events: SimEvent[];
}

const SECRET = "whsec_simulation";
const QUEUE = "deliveries";
/** The longest a step waits, in virtual time, for its answer: past every order wait and time limit. */
const STEP_MS = 120_000;

type JobRunResult = Exclude<JobOutcome["code"], "failed" | "invalid_job">;

class TxWorker extends QueueWorker<MessageEvents> {
  constructor(options: QueueWorkerOptions<MessageEvents>) {
    super(options, { system: "simulated", queue: QUEUE });
  }

  take(data: unknown, job: JobRun): Promise<JobRunResult> {
    return this.run(data, job);
  }

  async close(): Promise<void> {}
}

/** A process: its Receiver or worker, rebuilt when it is killed; the calls of a dead incarnation go nowhere. */
interface TxProcess {
  id: number;
  incarnation: number;
  fault: TxFault;
  receiver?: Receiver;
  worker?: TxWorker;
}

/**
 * Receivers or workers (two processes) with `transactions: pgliteTransactions(db)` and PostgresStore on one PGlite,
 * each handler run writing one row into the app's table through `ctx.transaction`, driven one delivery (or job run)
 * at a time with a fault planned between the write and the commit. PGlite runs one transaction at a time, as one
 * connection does: deliveries here take turns, and the interleavings are the faults' and the clock's. After every
 * step the effects model reads the app's table and the store's tables (effects-model.ts).
 */
export class TransactionWorld {
  readonly model: EffectsModel;
  readonly processes: TxProcess[] = [];
  readonly #store: PostgresStore;
  readonly #transactions: Transactions<unknown>;
  #inFlight = new Set<Promise<unknown>>();
  #attempts = 0;

  constructor(
    readonly options: TxWorldOptions,
    readonly clock: VirtualClock,
    readonly db: PGlite,
    readonly tables: { store: string; app: string },
  ) {
    this.#store = new PostgresStore({ client: this.#tracked(), table: tables.store, purgeEvery: 0 });
    this.#transactions = pgliteTransactions(db) as Transactions<unknown>;
    this.model = new EffectsModel(db, tables, options.events, options.side === "worker" ? `job:${QUEUE}:` : "");
    for (let id = 0; id < 2; id++) {
      const process: TxProcess = { id, incarnation: 0, fault: "none" };
      this.processes.push(process);
      this.#boot(process);
    }
  }

  async setup(): Promise<void> {
    await this.#store.setup();
    await this.db.exec(
      `CREATE TABLE ${this.tables.app} (seq serial PRIMARY KEY, event_id text NOT NULL, object text NOT NULL, position double precision)`,
    );
  }

  /** PGlite, each call counted in flight until it answers: `settle` waits for them. */
  #tracked(): ConstructorParameters<typeof PostgresStore>[0]["client"] {
    const db = this.db;
    return {
      query: (text: string, params?: unknown[]) =>
        this.#track(db.query<Record<string, unknown>>(text, params)) as Promise<{ rows: Record<string, unknown>[] }>,
      exec: (text: string) => this.#track(db.exec(text)),
    };
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    this.#inFlight.add(promise);
    const done = () => this.#inFlight.delete(promise);
    promise.then(done, done);
    return promise;
  }

  /** Lets every database call under way answer, and what it started run, before time moves. */
  async settle(): Promise<void> {
    for (let quiet = 0; quiet < 3; ) {
      if (this.#inFlight.size > 0) {
        await Promise.allSettled([...this.#inFlight]);
        quiet = 0;
      } else {
        await new Promise((resolve) => setImmediate(resolve));
        quiet++;
      }
    }
  }

  /** The store as one incarnation of a process sees it: once it is dead, its calls never reach the database. */
  #storeOf(process: TxProcess, incarnation: number): PostgresStore {
    const store = this.#store;
    return new Proxy(store, {
      get(target, name) {
        const value = Reflect.get(target, name, target);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) =>
          process.incarnation === incarnation ? value.apply(target, args) : (never as Promise<never>);
      },
    });
  }

  /** The transactions of one incarnation, with the step's fault between the handler's write and the commit. */
  #transactionsOf(process: TxProcess, incarnation: number): Transactions<unknown> {
    const run = this.#transactions;
    return {
      run: async (work) => {
        const fault = process.fault;
        const result = await this.#track(
          run.run((transaction, statements) => {
            const faulty: TransactionStatements = {
              query: (text, params) =>
                fault === "mark-fails"
                  ? Promise.reject(new StoreFaultError("the done mark's statement failed"))
                  : statements.query(text, params),
            };
            return work(transaction, faulty);
          }),
        );
        if (process.incarnation !== incarnation) return never;
        if (fault === "kill-after-commit") {
          this.#kill(process, "after its commit");
          return never;
        }
        if (fault === "commit-reply-lost") throw new StoreFaultError("COMMIT applied, its answer lost");
        return result;
      },
    };
  }

  #boot(process: TxProcess): void {
    const incarnation = process.incarnation;
    const joined = this.options.transactional !== false;
    const common = {
      store: this.#storeOf(process, incarnation),
      ...(joined && { transactions: this.#transactionsOf(process, incarnation) }),
      leaseMs: LEASE_MS,
      logger: quiet,
      ...(this.options.ordered && { order: messageStatusOrder, orderWaitMs: ORDER_WAIT_MS }),
    };
    const handler = (event: unknown, context: object) => this.#handle(process, incarnation, event, context);
    if (this.options.side === "receiver") {
      process.receiver = createReceiver({ ...common, secret: SECRET, now: this.clock.wallNow }).onAny(handler);
    } else {
      process.worker = new TxWorker(common as QueueWorkerOptions<MessageEvents>);
      process.worker.onAny(handler);
    }
  }

  /** The app's handler: one row for the event, through the delivery's transaction; then the step's fault. */
  async #handle(process: TxProcess, incarnation: number, received: unknown, context: object): Promise<void> {
    const event = this.model.eventOf(String((received as { id?: unknown }).id));
    const { transaction } = context as { transaction?: { query(text: string, params: unknown[]): Promise<unknown> } };
    const insert = `INSERT INTO ${this.tables.app} (event_id, object, position) VALUES ($1, $2, $3)`;
    const params = [event.id, event.object, event.position ?? null];
    if (transaction) await transaction.query(insert, params);
    else await this.#tracked().query(insert, params);
    this.model.note(`p${process.id} wrote ${event.id} (uncommitted)`);
    if (process.incarnation !== incarnation) return never;
    const fault = process.fault;
    if (fault === "throws") throw new ScheduledFailure(`${event.id}'s handler threw after its write`);
    if (fault === "kill-after-write") {
      this.#kill(process, "after its handler's write");
      // The connection drops with the process: the database rolls the transaction back.
      throw new ScheduledFailure("killed");
    }
    if (fault === "lease-lapses") {
      this.clock.jumped += LEASE_MS + 1;
      this.model.note(`the wall clock jumps ${LEASE_MS + 1} ms while ${event.id}'s handler runs`);
    }
  }

  #kill(process: TxProcess, when: string): void {
    this.model.note(`p${process.id} killed ${when}`);
    process.incarnation++;
    process.fault = "none";
    this.#boot(process);
  }

  /** One delivery (or job run) of `index` on `processIndex`, with `fault`; waits for its answer or its death. */
  async step(kind: "deliver" | "job", index: number, processIndex: number, fault: TxFault): Promise<void> {
    const event = this.options.events[index % this.options.events.length] as SimEvent;
    const process = this.processes[processIndex % this.processes.length] as TxProcess;
    const incarnation = process.incarnation;
    process.fault = fault;
    const attempt = ++this.#attempts;
    this.model.note(`${kind} ${event.id} → p${process.id} (attempt ${attempt}, ${fault})`);
    let answered = false;
    const done = (answer: string, acknowledged: boolean) => {
      answered = true;
      if (process.incarnation !== incarnation) return;
      this.model.note(`p${process.id} answered ${event.id}: ${answer}`);
      if (acknowledged) this.model.acknowledged(event.id, answer);
    };
    if (this.options.side === "receiver") {
      const rawBody = new TextEncoder().encode(JSON.stringify(payloadOf(event)));
      const headers = { "service-signature": sign(rawBody, SECRET) };
      (process.receiver as Receiver).handle({ method: "POST", headers, readBody: () => rawBody }).then(
        (result: ReceiveResult) => done(`${result.status} ${result.code}`, result.status < 300),
        (error: unknown) => this.model.violation(`handle() rejected for ${event.id}: ${String(error)}`),
      );
    } else {
      (process.worker as TxWorker).take(this.#jobOf(event), { id: `event:${event.id}`, attempt }).then(
        (result) => done(result, result !== "deferred"),
        (error: unknown) => done(`failed (${error instanceof Error ? error.message : String(error)})`, false),
      );
    }
    for (const until = this.clock.now + STEP_MS; ; ) {
      await this.settle();
      if (answered || process.incarnation !== incarnation) break;
      const next = this.clock.nextAt();
      if (next === undefined || next > until) {
        this.model.violation(`${event.id} got no answer on p${process.id} in ${STEP_MS} ms`);
        break;
      }
      await this.clock.advance(next - this.clock.now, () => this.settle());
    }
    process.fault = "none";
    await this.model.check();
  }

  #jobOf(event: SimEvent) {
    const payload = payloadOf(event);
    return toQueuedDelivery(
      payload,
      {
        type: payload.type,
        deliveryKey: `event:${event.id}`,
        timestamp: Math.floor(this.clock.wallNow() / 1000),
        secretIndex: 0,
        verifiedBody: new TextEncoder().encode(JSON.stringify(payload)),
        headers: {},
      },
      false,
    );
  }

  /** Virtual time passes: leases of dead processes' claims run out. */
  async advance(ms: number): Promise<void> {
    this.model.note(`${ms} ms pass`);
    await this.clock.advance(ms, () => this.settle());
    await this.model.check();
  }
}
