import type { DeliveryStore } from "@tidings/core";
import type { ClaimResult, ObjectPosition, OrderedClaimResult } from "@tidings/core/adapter";

/** One call a FaultyStore passed on (or not): what the simulator's reference model reads. */
export interface StoreCall {
  method: "claim" | "complete" | "release" | "claimInOrder" | "completeInOrder" | "releaseInOrder" | "renew";
  key: string;
  token?: string;
  leaseMs?: number;
  order?: ObjectPosition;
}

/**
 * What happens to one call: `fail` refuses it (nothing applied); `lost-reply` applies it and loses the answer (the
 * caller sees an error); `hang` answers nothing until `until` settles, then fails (nothing applied); `slow` waits for
 * `until`, then applies and answers.
 */
export type StoreFault =
  | { kind: "fail" }
  | { kind: "lost-reply" }
  | { kind: "hang"; until: Promise<void> }
  | { kind: "slow"; until: Promise<void> };

export interface FaultyStoreHooks {
  /** The fault for this call, decided when it is made; none passes it through. */
  fault?(call: StoreCall): StoreFault | undefined;
  /**
   * Awaited before the call reaches the store (a scheduler's turn, a paused process), and again after a `slow` fault's
   * wait; the call is then async.
   */
  before?(call: StoreCall): Promise<void> | undefined;
  /** Hears every call the wrapped store answered, with its answer, at the moment it was applied. */
  observe?(call: StoreCall, answer: unknown): void;
  /**
   * A refused call throws at once when nothing else makes it async, as a synchronous store that fails would; otherwise
   * it rejects, as a networked store does.
   */
  failSynchronously?: boolean;
}

/** What a faulty call rejects (or throws) with. */
export class StoreFaultError extends Error {
  override readonly name = "StoreFaultError";
}

type Renew = (key: string, token: string, leaseMs: number, order?: ObjectPosition) => boolean | Promise<boolean>;

/**
 * A DeliveryStore around another, which fails, hangs, delays or loses the answer of calls as its hooks decide. Without
 * hooks it is the wrapped store, answer for answer (synchronous where that one is): the contract suite runs it so.
 * `renew` exists exactly when the wrapped store has it.
 */
export class FaultyStore implements DeliveryStore {
  readonly renew?: Renew;

  constructor(
    readonly inner: DeliveryStore,
    readonly hooks: FaultyStoreHooks = {},
  ) {
    // Feature-detected: stores with leases they can renew have it.
    const renew = (inner as { renew?: Renew }).renew;
    if (typeof renew === "function") {
      this.renew = (key, token, leaseMs, order) =>
        this.#call({ method: "renew", key, token, leaseMs, ...(order && { order }) }, () =>
          renew.call(inner, key, token, leaseMs, order),
        );
    }
  }

  claim(key: string, leaseMs: number): ClaimResult | Promise<ClaimResult> {
    return this.#call({ method: "claim", key, leaseMs }, () => this.inner.claim(key, leaseMs));
  }

  complete(key: string, token: string, ttlMs: number): boolean | Promise<boolean> {
    return this.#call({ method: "complete", key, token }, () => this.inner.complete(key, token, ttlMs));
  }

  release(key: string, token: string): boolean | Promise<boolean> {
    return this.#call({ method: "release", key, token }, () => this.inner.release(key, token));
  }

  claimInOrder(
    key: string,
    leaseMs: number,
    order: ObjectPosition,
    ttlMs: number,
  ): OrderedClaimResult | Promise<OrderedClaimResult> {
    return this.#call({ method: "claimInOrder", key, leaseMs, order }, () =>
      this.#ordered("claimInOrder").call(this.inner, key, leaseMs, order, ttlMs),
    );
  }

  completeInOrder(key: string, token: string, ttlMs: number, order: ObjectPosition): boolean | Promise<boolean> {
    return this.#call({ method: "completeInOrder", key, token, order }, () =>
      this.#ordered("completeInOrder").call(this.inner, key, token, ttlMs, order),
    );
  }

  releaseInOrder(key: string, token: string, order: ObjectPosition): boolean | Promise<boolean> {
    return this.#call({ method: "releaseInOrder", key, token, order }, () =>
      this.#ordered("releaseInOrder").call(this.inner, key, token, order),
    );
  }

  #ordered<M extends "claimInOrder" | "completeInOrder" | "releaseInOrder">(method: M) {
    const found = this.inner[method];
    if (typeof found !== "function") throw new TypeError(`the wrapped store has no ${method}`);
    return found as NonNullable<DeliveryStore[M]>;
  }

  #call<T>(call: StoreCall, apply: () => T | Promise<T>): T | Promise<T> {
    const fault = this.hooks.fault?.(call);
    const before = this.hooks.before?.(call);
    if (before === undefined && fault === undefined) {
      const answer = apply();
      if (!this.hooks.observe) return answer;
      if (!(answer instanceof Promise)) {
        this.hooks.observe(call, answer);
        return answer;
      }
      return answer.then((value) => {
        this.hooks.observe?.(call, value);
        return value;
      });
    }
    if (before === undefined && fault?.kind === "fail" && this.hooks.failSynchronously) {
      throw new StoreFaultError(`${call.method} refused`);
    }
    return this.#faulty(call, apply, fault, before);
  }

  async #faulty<T>(
    call: StoreCall,
    apply: () => T | Promise<T>,
    fault: StoreFault | undefined,
    before: Promise<void> | undefined,
  ): Promise<T> {
    if (before) await before;
    if (fault?.kind === "fail") throw new StoreFaultError(`${call.method} refused`);
    if (fault?.kind === "hang") {
      await fault.until;
      throw new StoreFaultError(`${call.method} hung, then its connection failed`);
    }
    if (fault?.kind === "slow") {
      await fault.until;
      // Asked again: the caller may have been paused or died while its call was on its way.
      await this.hooks.before?.(call);
    }
    const answer = await apply();
    this.hooks.observe?.(call, answer);
    if (fault?.kind === "lost-reply") throw new StoreFaultError(`${call.method} applied, its answer lost`);
    return answer;
  }
}
