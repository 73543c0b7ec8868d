import { sign } from "@tidings/core";
import type { Scheme } from "@tidings/core/schemes";
import { randomId } from "../ids";
import { errorCodeOf, networkErrorName, postEvent } from "../post";
import { sampleDelivery, signSample } from "../schemes";

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
  /** Sign as this sender does (`--scheme`), with a delivery shaped as its own; the service's way by default. */
  scheme?: Scheme | undefined;
  /** A body to send as is (`--payload FILE`), in place of a made-up event. */
  payload?: string | undefined;
  onResult: (result: DeliveryResult) => void;
}

/** The body and headers of one delivery: the sender's sample (or `--payload`), signed its way. */
function signedDelivery({ scheme, payload, secret, url, makeEvent }: DeliveriesOptions) {
  if (!scheme) {
    const event = payload === undefined ? makeEvent() : undefined;
    const body = payload ?? JSON.stringify(event);
    return { id: event?.id ?? randomId("evt_"), body, headers: sign(body, secret) };
  }
  const id = randomId("evt_");
  const timestamp = Math.floor(Date.now() / 1000);
  const sample = sampleDelivery(scheme, id, timestamp);
  // A payload of one's own goes with the sender's headers and content type (a form for Twilio); where the sender
  // signs inside the body (Mailgun, Adyen), the file carries its own signature and is sent as it is.
  if (payload !== undefined && sample.signBody) {
    return { id, body: payload, headers: { "content-type": sample.contentType, ...sample.headers } };
  }
  const delivery = payload === undefined ? sample : { ...sample, body: payload };
  return { id, ...signSample(scheme, delivery, secret, { timestamp, id, url }) };
}

async function deliverOne(index: number, options: DeliveriesOptions): Promise<DeliveryResult> {
  const event = signedDelivery(options);
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  try {
    const signal = AbortSignal.timeout(options.timeoutMs);
    const { status, body } = await postEvent(options.url, event.body, event.headers, signal);
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
