/** What a timed step settles to when its time ran out first. */
export const TIMED_OUT: unique symbol = Symbol("timed out");

/** Settles as `work` does, or with `onTimeout()` once `ms` pass first; what `work` settles to after that is dropped. */
export function withTimeLimit<T>(work: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout()), ms);
  });
  return Promise.race([work.finally(() => clearTimeout(timer)), timedOut]);
}
