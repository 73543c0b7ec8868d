/** Fails an engine call that has not settled within `ms`: a client that queues commands while its server is down must not hold the sender's request forever. */
export function within<T>(operation: PromiseLike<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not complete within ${ms} ms`)), ms);
  });
  return Promise.race([operation, timeout]).finally(() => clearTimeout(timer));
}
