import { requireNodeCrypto } from "../crypto/node-crypto";
import type { DeliveryEvent } from "../event";
import type { DeliveryContext, DeliveryInfo } from "../receiver/handlers";
import { idempotencyKey } from "../receiver/idempotency-key";
import { fromJobText, holdsOnlyStorableText, isStorableText, toJobText } from "./job-text";
import { type JobTraceContext, readJobTrace } from "./job-trace";

/**
 * What a queue job holds: the verified event and what the Receiver learnt about it, never the headers. The event is
 * held as it is, unless its text, type, delivery key or endpoint label holds what an engine cannot store as it is
 * (NUL or a lone surrogate, which PostgreSQL's `jsonb` refuses): then the event is held as its JSON text and the three
 * strings escaped as inside a JSON string (`toJobText`), so every engine stores any event the Receiver accepts.
 *
 * @example
 * ```ts
 * import type { QueuedDelivery } from "@tidings/core/dispatch";
 * import type { Pool } from "pg";
 *
 * // An engine's write: the job data as JSON, under its id.
 * export const write = (pool: Pool) => (data: QueuedDelivery, jobId: string) =>
 *   pool.query("INSERT INTO jobs (id, type, data) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING", [
 *     jobId,
 *     data.type,
 *     JSON.stringify(data),
 *   ]);
 * ```
 */
export interface QueuedDelivery {
  /** The verified (and, with a schema, validated) event; its JSON text when it holds NUL or a lone surrogate. */
  event: object | string;
  /** The event type; `toJobText` of it when `event` is text. */
  type: string;
  /** The delivery key; `toJobText` of it when `event` is text. */
  deliveryKey: string;
  timestamp: number;
  secretIndex: number;
  /** The endpoint label, if the secret resolver gave one; `toJobText` of it when `event` is text. */
  endpoint?: string;
  /** SHA-256 of the verified body bytes, lowercase hex: proof of what was signed without keeping it. */
  verifiedBodySha256: string;
  /** The verified body bytes, base64, only when the enqueuer was asked to keep them (they may hold personal data). */
  verifiedBody?: string;
  /** The enqueue's trace context, when an instrumentation added one. */
  trace?: JobTraceContext;
}

/**
 * What a worker's handler learns about the delivery besides the event.
 *
 * @example
 * ```ts
 * import { createWorker } from "@tidings/bullmq";
 * import type { MessageEvents } from "@tidings/core";
 * import type { WorkerContext } from "@tidings/core/dispatch";
 *
 * function onDelivered(event: MessageEvents["message.delivered"], ctx: WorkerContext) {
 *   console.log(event.data.id, `run ${ctx.attempt} of job ${ctx.jobId}`, ctx.deliveryKey, ctx.endpoint);
 * }
 *
 * const worker = createWorker<MessageEvents>({ queue: "deliveries", connection: { host: "127.0.0.1", port: 6379 } });
 * worker.on("message.delivered", onDelivered);
 * ```
 */
export interface WorkerContext extends DeliveryInfo {
  /** 1 on the first run of the job, 2 on the next (after a failure, or after a worker died holding it)… */
  attempt: number;
  /** The engine's job id, derived from `deliveryKey`. */
  jobId: string;
  verifiedBodySha256: string;
  /** Present only when the enqueuer kept the raw body. */
  verifiedBody?: Uint8Array;
}

/**
 * What a job needs to run: the engine's id for it and which run this is.
 *
 * @example
 * ```ts
 * import { type JobRun, readQueuedDelivery } from "@tidings/core/dispatch";
 *
 * // An SQS message: its id, and how many times it was received.
 * export function readMessage(message: { MessageId: string; Body: string; ApproximateReceiveCount: string }) {
 *   const job: JobRun = { id: message.MessageId, attempt: Number(message.ApproximateReceiveCount) };
 *   return readQueuedDelivery(JSON.parse(message.Body), job);
 * }
 * ```
 */
export interface JobRun {
  id: string;
  attempt: number;
}

/**
 * A job's data, read and checked: the event for the handlers, their context, and the enqueue's trace context.
 *
 * @example
 * ```ts
 * import type { MessageEvents } from "@tidings/core";
 * import { Dispatcher, type ReadJob, type WorkerContext } from "@tidings/core/dispatch";
 *
 * const handlers = new Dispatcher<MessageEvents, WorkerContext>();
 * handlers.on("message.failed", (event, ctx) => console.log(event.data.id, ctx.attempt));
 *
 * // Every handler runs; the job fails with the first failure.
 * export async function runJob({ event, context }: ReadJob): Promise<void> {
 *   const failures = await handlers.dispatch(event, context);
 *   if (failures.length > 0) throw failures[0];
 * }
 * ```
 */
export interface ReadJob {
  event: DeliveryEvent;
  context: WorkerContext;
  trace: JobTraceContext | undefined;
}

/**
 * The job data for a verified delivery.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { toQueuedDelivery } from "@tidings/core/dispatch";
 *
 * // Hand each verified delivery to a queue of your own over HTTP: the event, its key, time, secret and body hash.
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! }).onAny(async (event, ctx) => {
 *   const job = toQueuedDelivery(event, ctx, false);
 *   const response = await fetch("http://127.0.0.1:8080/jobs", { method: "POST", body: JSON.stringify(job) });
 *   if (!response.ok) throw new Error(`the queue answered ${response.status}`); // the Receiver answers 500: retried
 * });
 * ```
 */
export function toQueuedDelivery(
  event: object,
  context: Omit<DeliveryContext, "idempotencyKey">,
  keepVerifiedBody: boolean,
): QueuedDelivery {
  const crypto = requireNodeCrypto("enqueueTo");
  const { type, deliveryKey, timestamp, secretIndex, endpoint, verifiedBody } = context;
  const storable =
    isStorableText(type) &&
    isStorableText(deliveryKey) &&
    (endpoint === undefined || isStorableText(endpoint)) &&
    holdsOnlyStorableText(event);
  const text = storable ? (as: string) => as : toJobText;
  const queued: QueuedDelivery = {
    event: storable ? event : JSON.stringify(event),
    type: text(type),
    deliveryKey: text(deliveryKey),
    timestamp,
    secretIndex,
    verifiedBodySha256: crypto.createHash("sha256").update(verifiedBody).digest("hex"),
  };
  if (endpoint !== undefined) queued.endpoint = text(endpoint);
  if (keepVerifiedBody) queued.verifiedBody = Buffer.from(verifiedBody).toString("base64");
  return queued;
}

const isString = (value: unknown) => typeof value === "string";

/**
 * Checks what a job holds before any handler sees it: a job written by something else fails with a clear message.
 *
 * @example
 * ```ts
 * import { readQueuedDelivery } from "@tidings/core/dispatch";
 *
 * // A job written by toQueuedDelivery, read back: a TypeError for data it never wrote.
 * export function describeJob(data: unknown, id: string, attempt: number): string {
 *   const { event, context } = readQueuedDelivery(data, { id, attempt });
 *   return `${context.type} ${context.deliveryKey} (run ${context.attempt}): ${JSON.stringify(event)}`;
 * }
 * ```
 */
export function readQueuedDelivery(data: unknown, job: JobRun): ReadJob {
  const queued = data as Record<string, unknown> | null;
  const event = queued?.event;
  const asText = typeof event === "string";
  if (
    (!asText && (typeof event !== "object" || event === null)) ||
    !isString(queued?.type) ||
    !isString(queued?.deliveryKey) ||
    !isString(queued?.verifiedBodySha256) ||
    typeof queued?.timestamp !== "number" ||
    typeof queued.secretIndex !== "number" ||
    (queued.endpoint !== undefined && !isString(queued.endpoint))
  ) {
    throw notADelivery(job);
  }
  const text = asText ? fromJobText : (stored: string) => stored;
  let context: WorkerContext;
  let parsed: unknown;
  try {
    parsed = asText ? JSON.parse(event) : event;
    context = {
      type: text(queued.type as string),
      deliveryKey: text(queued.deliveryKey as string),
      timestamp: queued.timestamp,
      secretIndex: queued.secretIndex,
      attempt: job.attempt,
      jobId: job.id,
      verifiedBodySha256: queued.verifiedBodySha256 as string,
      idempotencyKey,
    };
    if (queued.endpoint !== undefined) context.endpoint = text(queued.endpoint as string);
  } catch {
    throw notADelivery(job);
  }
  if (typeof parsed !== "object" || parsed === null) throw notADelivery(job);
  if (isString(queued.verifiedBody)) {
    context.verifiedBody = new Uint8Array(Buffer.from(queued.verifiedBody as string, "base64"));
  }
  return { event: parsed as DeliveryEvent, context, trace: readJobTrace(queued.trace) };
}

function notADelivery(job: JobRun): TypeError {
  return new TypeError(`Job ${job.id} does not hold a delivery enqueued by enqueueTo()`);
}
