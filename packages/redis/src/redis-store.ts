import type { DeliveryStore } from "@tidings/core";
import type { ClaimResult, ObjectPosition, OrderedClaimResult } from "@tidings/core/adapter";
import type { Redis } from "ioredis";
import { redisKey } from "./key";
import {
  CLAIM_IN_ORDER_SCRIPT,
  COMPLETE_IN_ORDER_SCRIPT,
  COMPLETE_SCRIPT,
  RELEASE_IN_ORDER_SCRIPT,
  RELEASE_SCRIPT,
  RENEW_IN_ORDER_SCRIPT,
  RENEW_SCRIPT,
} from "./scripts";
import { withTimeout } from "./timeout";

/**
 * The Redis store's client and key prefix, and how long a Redis call may take.
 *
 * @example
 * ```ts
 * import { RedisStore, type RedisStoreOptions } from "@tidings/redis";
 * import { Redis } from "ioredis";
 *
 * const options: RedisStoreOptions = {
 *   client: new Redis(process.env.REDIS_URL!),
 *   prefix: "tidings:sms:", // one prefix per receiver (per endpoint secret)
 *   operationTimeoutMs: 500,
 * };
 * export const store = new RedisStore(options);
 * ```
 */
export interface RedisStoreOptions {
  /** Your ioredis client (or Cluster-compatible client); its connection options stay yours. */
  client: Pick<Redis, "set" | "get" | "eval"> & { readonly status?: string; readonly isCluster?: boolean };
  /**
   * Prefix of every key this store writes. Default `"tidings:"`. With `order` on a Redis Cluster it must carry a hash
   * tag (`"{tidings}:"`), which puts an event's key and its object's keys in one slot.
   */
  prefix?: string;
  /** A Redis call slower than this fails, and the Receiver answers 503 so the sender retries. Default 2000 ms. */
  operationTimeoutMs?: number;
}

const IN_FLIGHT = "in-flight:";
// ioredis statuses between losing the connection and getting it back ("connecting" also covers start-up).
const DISCONNECTED = new Set(["close", "reconnecting", "end"]);
const DONE = "done:";
// SET NX and the GET after it are two calls: the claim can expire in between. A few retries settle it.
const CLAIM_ATTEMPTS = 3;

/**
 * A DeliveryStore on Redis, for receivers running on several instances: a claim is one
 * `SET key in-flight:<token> NX PX lease`; completing and releasing are Lua scripts that act only
 * while the key still holds that token.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { RedisStore } from "@tidings/redis";
 * import { Redis } from "ioredis";
 *
 * const client = new Redis(process.env.REDIS_URL!); // your client, your connection options
 * client.on("error", (error) => console.error("redis:", error.message)); // ioredis emits errors while it reconnects
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET!, store: new RedisStore({ client }) });
 * receiver.on("message.delivered", (event) => console.log(`${event.data.id} delivered`)); // once, on any instance
 * ```
 */
export class RedisStore implements DeliveryStore {
  readonly #client: RedisStoreOptions["client"];
  readonly #prefix: string;
  readonly #timeoutMs: number;
  /**
   * Set on a Cluster client whose prefix has no hash tag, which cannot keep order (an ordered step's keys could not
   * share one slot): why, and the fix. `order` with this store is then refused when the Receiver or worker is created.
   */
  readonly orderUnavailable: string | undefined;

  constructor(options: RedisStoreOptions) {
    if (!options?.client) throw new TypeError("RedisStore needs { client }: an ioredis instance");
    this.#client = options.client;
    this.#prefix = options.prefix ?? "tidings:";
    const brace = this.#prefix.indexOf("{");
    if (brace >= 0 && this.#prefix.indexOf("}", brace + 1) < 0) {
      // The hash tag would then run into the key names, and an ordered step's keys land in different cluster slots.
      throw new TypeError("RedisStore prefix has a `{` with no `}` after it: close the hash tag, or use none");
    }
    this.#timeoutMs = options.operationTimeoutMs ?? 2000;
    const tagEnd = brace < 0 ? -1 : this.#prefix.indexOf("}", brace + 1);
    this.orderUnavailable =
      options.client.isCluster === true && tagEnd <= brace + 1
        ? `RedisStore on a Redis Cluster keeps order only with a hash-tagged prefix (such as "{tidings}:"): an ordered event's key is the key its plain claim uses, and a script must find it in the slot of its object's keys. ${JSON.stringify(this.#prefix)} has no tag.`
        : undefined;
  }

  async claim(key: string, leaseMs: number): Promise<ClaimResult> {
    const token = crypto.randomUUID();
    try {
      return await this.#claim(this.#prefix + key, token, leaseMs);
    } catch (error) {
      // A SET we gave up on may still run once Redis is back (ioredis queues and resends commands); it would
      // hold the key for a whole lease with nobody handling it. A release queued behind it undoes it, and
      // the token check keeps the release from touching anyone else's claim.
      this.release(key, token).catch(() => {});
      throw error;
    }
  }

  async #claim(name: string, token: string, leaseMs: number): Promise<ClaimResult> {
    this.#assertConnected();
    const key = redisKey(name);
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const set = await this.#call(this.#client.set(key, IN_FLIGHT + token, "PX", leaseMs, "NX"), "SET NX");
      if (set === "OK") return { state: "claimed", token };
      const current = await this.#call(this.#client.get(key), "GET");
      if (current?.startsWith(DONE)) return { state: "done" };
      if (current !== null) return { state: "in-flight" };
    }
    throw new Error(`Redis key ${JSON.stringify(name)} kept expiring between SET NX and GET`);
  }

  async complete(key: string, token: string, ttlMs: number): Promise<boolean> {
    const script = this.#client.eval(
      COMPLETE_SCRIPT,
      1,
      redisKey(this.#prefix + key),
      IN_FLIGHT + token,
      DONE + token,
      ttlMs,
    );
    return (await this.#call(script, "complete")) === 1;
  }

  async release(key: string, token: string): Promise<boolean> {
    const script = this.#client.eval(RELEASE_SCRIPT, 1, redisKey(this.#prefix + key), IN_FLIGHT + token);
    return (await this.#call(script, "release")) === 1;
  }

  /** Extends a claim the token still holds (with `order`, the object's lease too) to `leaseMs` from now: one script. */
  async renew(key: string, token: string, leaseMs: number, order?: ObjectPosition): Promise<boolean> {
    const script =
      order === undefined
        ? this.#client.eval(RENEW_SCRIPT, 1, redisKey(this.#prefix + key), IN_FLIGHT + token, leaseMs)
        : this.#client.eval(
            RENEW_IN_ORDER_SCRIPT,
            3,
            ...this.#orderedKeys(key, order.object),
            IN_FLIGHT + token,
            leaseMs,
          );
    return (await this.#call(script, "renew")) === 1;
  }

  /** One script: the delivery key, the object's position and its lease, in one cluster slot. */
  async claimInOrder(key: string, leaseMs: number, order: ObjectPosition, ttlMs: number): Promise<OrderedClaimResult> {
    this.#assertConnected();
    const token = crypto.randomUUID();
    const keys = this.#orderedKeys(key, order.object);
    const script = this.#client.eval(
      CLAIM_IN_ORDER_SCRIPT,
      3,
      ...keys,
      IN_FLIGHT + token,
      String(order.position),
      leaseMs,
      DONE + token,
      ttlMs,
    );
    try {
      const state = (await this.#call(script, "claim in order")) as OrderedClaimResult["state"];
      return state === "claimed" ? { state, token } : { state };
    } catch (error) {
      // As in claim(): a script we gave up on may still run once Redis is back; the release behind it undoes it.
      this.releaseInOrder(key, token, order).catch(() => {});
      throw error;
    }
  }

  async completeInOrder(key: string, token: string, ttlMs: number, order: ObjectPosition): Promise<boolean> {
    const keys = this.#orderedKeys(key, order.object);
    const script = this.#client.eval(
      COMPLETE_IN_ORDER_SCRIPT,
      3,
      ...keys,
      IN_FLIGHT + token,
      DONE + token,
      ttlMs,
      String(order.position),
    );
    return (await this.#call(script, "complete in order")) === 1;
  }

  async releaseInOrder(key: string, token: string, order: ObjectPosition): Promise<boolean> {
    const keys = this.#orderedKeys(key, order.object);
    const script = this.#client.eval(RELEASE_IN_ORDER_SCRIPT, 3, ...keys, IN_FLIGHT + token);
    return (await this.#call(script, "release in order")) === 1;
  }

  /**
   * An ordered event's delivery key (the key `claim` uses, so switching `order` on or off never runs a handled event
   * again), its object's position and its object's lease. The last two keep the names they have always had, so
   * handled positions outlive an upgrade; the object's length in them keeps every object's keys apart however it ends.
   */
  #orderedKeys(key: string, object: string): [string | Buffer, string | Buffer, string | Buffer] {
    if (this.orderUnavailable !== undefined) throw new TypeError(this.orderUnavailable);
    const tagged = `${object.length}{:${object}}`;
    return [
      redisKey(this.#prefix + key),
      redisKey(`${this.#prefix}#o${tagged}`),
      redisKey(`${this.#prefix}#l${tagged}`),
    ];
  }

  #call<T>(operation: Promise<T>, what: string): Promise<T> {
    return withTimeout(operation, this.#timeoutMs, what);
  }

  /** Fails at once while the connection is lost, rather than queueing commands to run at some later time. */
  #assertConnected(): void {
    const { status } = this.#client;
    if (status !== undefined && DISCONNECTED.has(status)) {
      throw new Error(`Redis connection is down (ioredis status: ${status})`);
    }
  }
}
