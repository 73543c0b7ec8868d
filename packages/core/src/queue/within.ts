import { startSharedDeadline } from "../shared-deadline";

/**
 * Fails an engine call that has not settled within `ms` (up to an eighth more): a client that queues commands while
 * its server is down must not hold the sender's request forever. `describe` names the call in the error, and is
 * asked only when the time runs out.
 */
export function within<T>(operation: PromiseLike<T>, ms: number, describe: () => string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const deadline = startSharedDeadline(ms, () => reject(new Error(`${describe()} did not complete within ${ms} ms`)));
    operation.then(
      (value) => {
        deadline.clear();
        resolve(value);
      },
      (error: unknown) => {
        deadline.clear();
        reject(error);
      },
    );
  });
}
