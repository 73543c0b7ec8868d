// `@tidings/core/dispatch`: what queue packages build on. The Receiver's handler registry and dispatch rule, the job
// a verified delivery becomes, and the worker half that every engine shares. Node only (the job holds a SHA-256).
export type { FailedDelivery, QueueAdmin, QueueCounts } from "./queue/admin";
export { type JobOutcome, QueueWorker, type QueueWorkerOptions, type WorkerErrorInfo } from "./queue/queue-worker";
export {
  type JobRun,
  type QueuedDelivery,
  toQueuedDelivery,
  toWorkerContext,
  type WorkerContext,
} from "./queue/queued-delivery";
export { within } from "./queue/within";
export { Dispatcher, type ErrorListener } from "./receiver/dispatch";
export type { Logger } from "./receiver/logger";
export type { HandlerRun, OutcomeListener } from "./receiver/outcome";
