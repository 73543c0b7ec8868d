/** A promise, or any thenable a store or handler may return: what the Receiver awaits (and only that). */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null | undefined)?.then === "function";
}
