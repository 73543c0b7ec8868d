import type { Scheme } from "@tidings/core/schemes";
import { errorCodeOf, networkErrorName, postSignedEvent } from "../post";
import { senderBody } from "../schemes";

/** One delivery: `status` when the receiver answered, `error` when it could not be reached in time. */
export interface DeliveryResult {
  index: number;
  eventId: string;
  ms: number;
  status?: number;
  /** The receiver's `error.code`, for a non-2xx answer in Tidings' error shape. */
  code?: string;
  error?: string;
}

export interface DeliveriesOptions {
  url: string;
  secret: string;
  count: number;
  concurrency: number;
  timeoutMs: number;
  makeEvent: () => { id: string; type: string };
  /** Sign as this sender does (`--scheme`); the service's way by default. */
  scheme?: Scheme | undefined;
  onResult: (result: DeliveryResult) => void;
}

async function deliverOne(index: number, options: DeliveriesOptions): Promise<DeliveryResult> {
  const event = options.makeEvent();
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  try {
    const { scheme } = options;
    const { status, body } = await postSignedEvent(
      options.url,
      JSON.stringify(scheme ? senderBody(scheme, event) : event),
      options.secret,
      AbortSignal.timeout(options.timeoutMs),
      scheme && { scheme, id: event.id },
    );
    const code = status >= 200 && status < 300 ? undefined : errorCodeOf(body);
    return { index, eventId: event.id, ms: elapsed(), status, ...(code ? { code } : {}) };
  } catch (error) {
    return { index, eventId: event.id, ms: elapsed(), error: networkErrorName(error) };
  }
}

/** Sends `count` events with at most `concurrency` in flight; results in completion order through `onResult`. */
export async function runDeliveries(options: DeliveriesOptions): Promise<DeliveryResult[]> {
  const results: DeliveryResult[] = [];
  let next = 1;
  const worker = async () => {
    while (next <= options.count) {
      const result = await deliverOne(next++, options);
      results.push(result);
      options.onResult(result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, options.count) }, worker));
  return results;
}
