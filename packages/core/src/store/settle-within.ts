import { within } from "../ground/within";

const FIRST_WAIT_MS = 50;
const LONGEST_WAIT_MS = 1000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Completes (or releases) a claim, trying again while a failing store may come back: a store failing over (a Redis
 * master's replica taking over) is back within seconds, and a done mark never written would let a later copy of the
 * event run its handlers again. A store that hangs counts as one that fails. Resolves to what the store answered (false: the token no longer held the claim); rejects with the last
 * failure once `withinMs` have passed.
 */
export function settleWithin(
  first: PromiseLike<boolean>,
  settle: () => boolean | PromiseLike<boolean>,
  withinMs: number,
): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  let gaveUp = false;
  const attempts = async () => {
    let attempt = first;
    for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
      try {
        return await attempt;
      } catch (error) {
        if (Date.now() + wait >= deadline) throw error;
      }
      await sleep(wait);
      if (gaveUp) return false; // cut off by the bound below, which has answered already
      attempt = Promise.resolve().then(settle);
    }
  };
  // One bound over every attempt: a store that hangs is cut off as one that fails, within the same time.
  return within(attempts(), withinMs, () => "Marking the delivery settled").finally(() => {
    gaveUp = true;
  });
}
