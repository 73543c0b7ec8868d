import { sign } from "@tidings/core";
import { errorCodeOf, networkErrorName, postEvent } from "../post";
import { type AttemptRecord, type EventRecord, RESPONSE_START_CHARS } from "./journal";

export interface AttemptOptions {
  webhookUrl: string;
  secret: string;
  timeoutMs: number;
  /** Aborts the attempt when the emulator stops. */
  stopping: AbortSignal;
  /** An outage: the attempt fails at once, without reaching the receiver. */
  paused: boolean;
  /** The sender's clock error, in seconds, applied to the signature's `t`. */
  skewS: number;
  extra?: AttemptRecord["extra"];
}

export const isSuccess = (attempt: AttemptRecord) =>
  attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;

/** POSTs the event's payload once, freshly signed, and appends what happened to `event.attempts`. */
export async function attemptDelivery(event: EventRecord, options: AttemptOptions): Promise<AttemptRecord> {
  const started = performance.now();
  const timestamp = Math.floor(Date.now() / 1000) + options.skewS;
  const signature = sign(event.payload, options.secret, { timestamp });
  const base = { at: new Date().toISOString(), signature, ...(options.extra ? { extra: options.extra } : {}) };
  let record: AttemptRecord;
  if (options.paused) {
    record = { ...base, error: "paused", latencyMs: 0, responseStart: "" };
  } else {
    const signal = AbortSignal.any([options.stopping, AbortSignal.timeout(options.timeoutMs)]);
    try {
      const answer = await postEvent(options.webhookUrl, event.payload, signature, signal);
      const code = answer.status >= 200 && answer.status < 300 ? undefined : errorCodeOf(answer.body);
      record = {
        ...base,
        status: answer.status,
        ...(code === undefined ? {} : { code }),
        latencyMs: performance.now() - started,
        responseStart: answer.body.slice(0, RESPONSE_START_CHARS),
      };
    } catch (error) {
      record = {
        ...base,
        error: networkErrorName(error),
        latencyMs: performance.now() - started,
        responseStart: "",
      };
    }
  }
  event.attempts.push(record);
  return record;
}
