import { isPromiseLike } from "../ground/promise-like";
import type { Handler } from "./handlers";
import type { HandlerRun } from "./outcome";
import { preciseNow } from "./outcome";

/** Wraps a handler so each run is recorded in `runs` (only while something listens for outcomes). */
export function timedHandler<Context>(
  handler: Handler<unknown, Context>,
  on: string,
  runs: HandlerRun[],
): Handler<unknown, Context> {
  const name = handler.name || "anonymous";
  return (event, context) => {
    const startedAt = preciseNow();
    const settle = (failed: boolean, error?: unknown) => {
      const run: HandlerRun = { name, on, startedAt, durationMs: preciseNow() - startedAt, failed };
      if (failed) run.error = error;
      runs.push(run);
    };
    let returned: unknown;
    try {
      returned = handler(event, context);
    } catch (error) {
      settle(true, error);
      throw error;
    }
    if (!isPromiseLike(returned)) {
      settle(false);
      return returned;
    }
    return returned.then(
      (value) => {
        settle(false);
        return value;
      },
      (error: unknown) => {
        settle(true, error);
        throw error;
      },
    );
  };
}
