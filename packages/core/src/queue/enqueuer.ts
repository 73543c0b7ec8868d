import type { DeliveryContext } from "../receiver/handlers";
import type { EnqueueHook, EnqueueTrace } from "./job-trace";
import { type QueuedDelivery, toQueuedDelivery } from "./queued-delivery";
import { within } from "./within";

/** A Receiver handler that enqueues each event (what every engine's `enqueueTo` returns). */
export interface Enqueuer {
  (event: object, context: DeliveryContext): Promise<void>;
  /** The engine, as `messaging.system` names it. */
  readonly system: string;
  readonly queue: string;
  /**
   * Lets an instrumentation see each enqueue before the job is written and put its trace context in the job
   * (`instrument(enqueuer)` of `@tidings/opentelemetry`). A hook that throws is ignored: telemetry never fails an
   * enqueue.
   */
  onEnqueue(hook: EnqueueHook): this;
}

/** What an engine package gives {@link createEnqueuer}. */
export interface EnqueuerSettings {
  system: string;
  queue: string;
  /** The engine's job id for a delivery key: the same on every instance, never the same for two keys. */
  jobIdFor(deliveryKey: string): string;
  /** Writes one job; resolves once the engine stored it (or found the id already there). */
  write(data: QueuedDelivery, jobId: string, context: DeliveryContext): PromiseLike<unknown>;
  /** How long a write may take before the enqueue fails (the Receiver then answers 5xx). */
  timeoutMs: number;
  keepVerifiedBody: boolean;
  /** Names the write in the timeout's error, e.g. `Adding the job for <key> to BullMQ queue <name>`. */
  describe(deliveryKey: string): string;
}

/** The enqueue every engine shares: job data, job id, the bound on the write, and the instrumentation hooks. */
export function createEnqueuer(settings: EnqueuerSettings): Enqueuer {
  const { system, queue, jobIdFor, write, timeoutMs, keepVerifiedBody, describe } = settings;
  const hooks: EnqueueHook[] = [];
  const store = (data: QueuedDelivery, jobId: string, context: DeliveryContext, around?: EnqueueTrace) => {
    const writing = around?.around ? around.around(() => write(data, jobId, context)) : write(data, jobId, context);
    return within(writing, timeoutMs, () => describe(context.deliveryKey));
  };
  const enqueue = (async (event: object, context: DeliveryContext): Promise<void> => {
    const data = toQueuedDelivery(event, context, keepVerifiedBody);
    const jobId = jobIdFor(context.deliveryKey);
    if (hooks.length === 0) {
      await store(data, jobId, context);
      return;
    }
    const traces = startTraces(hooks, { system, queue, jobId, delivery: context });
    const trace = traces.find((started) => started.trace !== undefined)?.trace;
    if (trace !== undefined) data.trace = trace;
    try {
      await store(
        data,
        jobId,
        context,
        traces.find((started) => started.around !== undefined),
      );
    } catch (error) {
      endTraces(traces, [error]);
      throw error;
    }
    endTraces(traces, []);
  }) as Enqueuer;
  Object.defineProperties(enqueue, {
    system: { value: system, enumerable: true },
    queue: { value: queue, enumerable: true },
    onEnqueue: {
      value(hook: EnqueueHook) {
        hooks.push(hook);
        return enqueue;
      },
    },
  });
  return enqueue;
}

function startTraces(hooks: readonly EnqueueHook[], info: Parameters<EnqueueHook>[0]): EnqueueTrace[] {
  const traces: EnqueueTrace[] = [];
  for (const hook of hooks) {
    try {
      const started = hook(info);
      if (started !== undefined) traces.push(started);
    } catch {
      // An instrumentation's failure is not the delivery's.
    }
  }
  return traces;
}

function endTraces(traces: readonly EnqueueTrace[], error: [] | [unknown]): void {
  for (const trace of traces) {
    try {
      trace.end(...error);
    } catch {
      // As above.
    }
  }
}
