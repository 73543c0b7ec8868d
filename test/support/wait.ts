import { watch } from "node:fs";
import { dirname } from "node:path";
import { vi } from "vitest";

// Waiting on a condition, never on a length of time. The event loop's own functions are taken here, when the module
// loads, so that a test that installs fake timers afterwards still waits (and gives up) on the real ones.
const nextTurn = globalThis.setImmediate;
const realTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const realNow = performance.now.bind(performance);

/** Long enough that only a wait that will never end reaches it, on the slowest machine CI runs on. */
const CAP_MS = 60_000;

type Truthy<T> = Exclude<T, false | 0 | "" | null | undefined>;

/** Calls `changed` whenever what a check reads may have changed; returns what stops it. */
export type Wake = (changed: () => void) => () => void;

export interface WaitOptions {
  /** Gives up after this many ms: a cap on a wait that went wrong, not a measure. Default 60 s. */
  withinMs?: number;
  /**
   * Asks again only when this says something changed (a file another process appends to: `changesOf(file)`), instead
   * of at every turn of the event loop, which would keep a core busy re-reading it.
   */
  wake?: Wake;
  /**
   * Asks again after this many ms instead of at the next turn of the event loop. Only for a question to another
   * process about state that nothing announces (a Redis Cluster's view of itself); test/README.md lists each use.
   */
  everyMs?: number;
}

/**
 * Resolves with the first truthy answer of `check`, asked now and again at every turn of the event loop (or, for a
 * check that awaits another process, as soon as its answer is in; or when `wake` says so). Rejects, saying `what` it
 * waited for and the last answer, if none came within the cap.
 */
export async function until<T>(
  check: () => T | PromiseLike<T>,
  what: string | (() => string),
  { withinMs = CAP_MS, wake, everyMs }: WaitOptions = {},
): Promise<Truthy<T>> {
  const giveUpAt = realNow() + withinMs;
  let changed = true;
  let woken: () => void = () => {};
  const stop = wake?.(() => {
    changed = true;
    woken();
  });
  try {
    for (;;) {
      changed = false;
      const answer = await check();
      if (answer) return answer as Truthy<T>;
      const left = giveUpAt - realNow();
      if (left < 0) {
        const said = typeof what === "function" ? what() : what;
        throw new Error(`gave up after ${withinMs} ms waiting for ${said} (last answer: ${String(answer)})`);
      }
      await new Promise<void>((resolve) => {
        if (everyMs !== undefined) realTimeout(resolve, everyMs);
        else if (!wake || changed) nextTurn(resolve);
        else {
          const timer = realTimeout(resolve, left + 1);
          woken = () => {
            realClearTimeout(timer);
            resolve();
          };
        }
      });
      woken = () => {};
    }
  } finally {
    stop?.();
  }
}

/** Wakes `until` whenever a file in `file`'s folder changes: a log another process appends to. */
export function changesOf(file: string): Wake {
  return (changed) => {
    const watcher = watch(dirname(file), changed);
    return () => watcher.close();
  };
}

/**
 * Settles as `promise` does (an event the code under test announces, an answer it gives); rejects, saying `what` it
 * waited for, if that has not happened within the cap.
 */
export function capped<T>(
  promise: PromiseLike<T>,
  what: string | (() => string),
  { withinMs = CAP_MS }: Pick<WaitOptions, "withinMs"> = {},
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<never>((_resolve, reject) => {
    timer = realTimeout(() => {
      const said = typeof what === "function" ? what() : what;
      reject(new Error(`gave up after ${withinMs} ms waiting for ${said}`));
    }, withinMs);
    (timer as { unref?: () => void }).unref?.();
  });
  return Promise.race([Promise.resolve(promise), gaveUp]).finally(() => realClearTimeout(timer));
}

/**
 * Starts `start` on vitest's fake clock (`setTimeout` and `Date`), moves it on `ms` at once and settles as what `start`
 * returned: a time limit in the code under test reached without waiting for it, however loaded the machine. The next
 * turn of the event loop stays real. Timers still pending afterwards go with the fake clock.
 */
export async function afterFakeTime<T>(ms: number, start: () => PromiseLike<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    const settling = Promise.resolve(start());
    settling.catch(() => {}); // awaited below, once the clock has moved
    await vi.advanceTimersByTimeAsync(ms);
    return await settling;
  } finally {
    vi.useRealTimers();
  }
}
