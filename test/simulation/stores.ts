import type { DeliveryStore } from "@tidings/core";
import { MemoryStore } from "@tidings/core";
import type { ClaimResult, ObjectPosition, OrderedClaimResult } from "@tidings/core/adapter";
import type { VirtualClock } from "./clock";

/** Which store a schedule's processes share. */
export type StoreKind = "memory" | "pglite" | "redis";

/** MemoryStore under pressure: so few entries that done keys and positions are evicted as soon as it may. */
export const PRESSURE_MIN_RETENTION_MS = 5_000;

const quiet = { error() {}, warn() {} };

/**
 * A real store's answers, held and let through one at a time, in the order the calls were made, by the run's
 * `settle`: a run against Redis or PGlite is then as much a function of its seed as one against MemoryStore, whose
 * answers come in the same turn. Every call reaches the store as soon as it is made (Redis runs them in that order on
 * the one connection; PGlite one after another).
 */
export class AnswerGate {
  readonly #held: { answer: Promise<unknown>; release: () => void }[] = [];

  get waiting(): number {
    return this.#held.length;
  }

  hold<T>(ask: () => T | Promise<T>): Promise<T> {
    let answer: Promise<T>;
    try {
      answer = Promise.resolve(ask());
    } catch (error) {
      answer = Promise.reject(error);
    }
    return new Promise<T>((resolve, reject) => {
      this.#held.push({ answer, release: () => answer.then(resolve, reject) });
    });
  }

  /** Waits for the oldest call's real answer, then hands it to its caller. */
  async releaseOne(): Promise<void> {
    const next = this.#held.shift();
    if (!next) return;
    await next.answer.then(
      () => {},
      () => {},
    );
    next.release();
  }
}

type Renew = NonNullable<DeliveryStore["renew"]>;

/**
 * A real store behind an AnswerGate. `scale` multiplies every duration it passes on (leases and TTLs): a store that
 * keeps time on its own clock is given durations in its own units (see `redisStores`).
 */
export class GatedStore implements DeliveryStore {
  readonly renew?: Renew;

  constructor(
    readonly inner: DeliveryStore,
    readonly gate: AnswerGate,
    readonly scale: number,
  ) {
    const renew = inner.renew;
    if (typeof renew === "function") {
      this.renew = (key, token, leaseMs, order) =>
        gate.hold(() => renew.call(inner, key, token, leaseMs * scale, order));
    }
  }

  claim(key: string, leaseMs: number): Promise<ClaimResult> {
    return this.gate.hold(() => this.inner.claim(key, leaseMs * this.scale));
  }

  complete(key: string, token: string, ttlMs: number): Promise<boolean> {
    return this.gate.hold(() => this.inner.complete(key, token, ttlMs * this.scale));
  }

  release(key: string, token: string): Promise<boolean> {
    return this.gate.hold(() => this.inner.release(key, token));
  }

  claimInOrder(key: string, leaseMs: number, order: ObjectPosition, ttlMs: number): Promise<OrderedClaimResult> {
    const [lease, ttl] = [leaseMs * this.scale, ttlMs * this.scale];
    return this.gate.hold(() => this.#ordered("claimInOrder").call(this.inner, key, lease, order, ttl));
  }

  completeInOrder(key: string, token: string, ttlMs: number, order: ObjectPosition): Promise<boolean> {
    const ttl = ttlMs * this.scale;
    return this.gate.hold(() => this.#ordered("completeInOrder").call(this.inner, key, token, ttl, order));
  }

  releaseInOrder(key: string, token: string, order: ObjectPosition): Promise<boolean> {
    return this.gate.hold(() => this.#ordered("releaseInOrder").call(this.inner, key, token, order));
  }

  #ordered<M extends "claimInOrder" | "completeInOrder" | "releaseInOrder">(method: M) {
    const found = this.inner[method];
    if (typeof found !== "function") throw new TypeError(`the store has no ${method}`);
    return found as NonNullable<DeliveryStore[M]>;
  }
}

/** The store one schedule's processes share. */
export interface Backing {
  store: DeliveryStore;
  /** Set for a real store: what `settle` lets through. */
  gate: AnswerGate | undefined;
  /** MemoryStore under pressure: done keys this old may be evicted (see `ReferenceModel.doneKeysEvictableAfterMs`). */
  doneKeysEvictableAfterMs: number | undefined;
  /** For a store on a clock of its own: moves that clock on by `ms` of virtual time, between steps. */
  passTime?: ((ms: number) => Promise<void>) | undefined;
}

/** Opens a fresh store (or a fresh namespace of a shared server) for each schedule. */
export interface StoreFactory {
  readonly kind: StoreKind;
  /** `maxEntries` applies to MemoryStore only: undefined is its default. */
  open(clock: VirtualClock, maxEntries: number | undefined): Promise<Backing>;
  close(): Promise<void>;
}

export const memoryStores: StoreFactory = {
  kind: "memory",
  async open(clock, maxEntries) {
    const pressure = maxEntries !== undefined;
    const store = new MemoryStore({
      now: clock.wallNow,
      logger: quiet,
      ...(pressure && { maxEntries, minRetentionMs: PRESSURE_MIN_RETENTION_MS }),
    });
    return { store, gate: undefined, doneKeysEvictableAfterMs: pressure ? PRESSURE_MIN_RETENTION_MS : undefined };
  },
  async close() {},
};

/** PostgresStore on one in-process PGlite, a table pair per schedule. PGlite's `now()` reads `Date.now()`: virtual. */
export async function pgliteStores(): Promise<StoreFactory> {
  const [{ PGlite }, { PostgresStore }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@tidings/postgres"),
  ]);
  const db = new PGlite();
  let tables = 0;
  return {
    kind: "pglite",
    async open() {
      const store = new PostgresStore({ client: db, table: `sim_${++tables}`, purgeEvery: 0 });
      await store.setup();
      const gate = new AnswerGate();
      return { store: new GatedStore(store, gate, 1), gate, doneKeysEvictableAfterMs: undefined, passTime: undefined };
    },
    close: () => db.close(),
  };
}

/**
 * RedisStore on a real redis-server, one connection for every process (so its answers come in the order asked), a
 * key prefix per schedule. Redis expires keys on its own clock, which nothing can move: so every duration is passed to
 * it in real seconds per virtual millisecond (REDIS_SCALE), far longer than any run lasts, and as virtual time passes
 * one script moves every key of the schedule on by as much, expiring those whose time is up. Between two steps real
 * time (well under a second) never moves a key past a virtual millisecond: each step rounds it away.
 */
export async function redisStores(): Promise<StoreFactory> {
  const [{ RedisStore }, { Redis }, { RedisServer }] = await Promise.all([
    import("@tidings/redis"),
    import("ioredis"),
    import("../support/redis-server"),
  ]);
  const server = await RedisServer.start();
  const client = new Redis({ host: "127.0.0.1", port: server.port, lazyConnect: true });
  await client.connect();
  let prefixes = 0;
  return {
    kind: "redis",
    async open() {
      const prefix = `sim:${++prefixes}:`;
      const store = new RedisStore({ client, prefix });
      const gate = new AnswerGate();
      return {
        store: new GatedStore(store, gate, REDIS_SCALE),
        gate,
        doneKeysEvictableAfterMs: undefined,
        passTime: async (ms) => {
          await client.eval(PASS_TIME_SCRIPT, 0, `${prefix}*`, ms, REDIS_SCALE);
        },
      };
    },
    async close() {
      client.disconnect();
      await server.remove();
    },
  };
}

/** Real ms of Redis time per virtual ms. */
const REDIS_SCALE = 1_000;

/** Moves the TTL of every key matching ARGV[1] on by ARGV[2] virtual ms of ARGV[3] real ms each. */
const PASS_TIME_SCRIPT = `
local step, scale = tonumber(ARGV[2]), tonumber(ARGV[3])
for _, key in ipairs(redis.call("KEYS", ARGV[1])) do
  local ttl = redis.call("PTTL", key)
  if ttl > 0 then
    local left = math.ceil(ttl / scale) - step
    if left <= 0 then redis.call("DEL", key) else redis.call("PEXPIRE", key, left * scale) end
  end
end
return 0`;

export async function storeFactory(kind: StoreKind): Promise<StoreFactory> {
  if (kind === "pglite") return pgliteStores();
  if (kind === "redis") return redisStores();
  return memoryStores;
}
