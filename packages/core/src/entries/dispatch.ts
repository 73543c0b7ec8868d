// `@tidings/core/dispatch`: what queue packages build on. The Receiver's handler registry and dispatch rule, the job
// a verified delivery becomes, the enqueue and the worker half that every engine shares. Node only (the job holds a
// SHA-256).

export type { Logger } from "../ground/logger";
export { within } from "../ground/within";
export {
  type FailedDelivery,
  type FoundJob,
  guardConnection,
  isQueueAdminError,
  type QueueAdmin,
  QueueAdminError,
  type QueueAdminErrorCode,
  type QueueAdminErrorDetails,
  type QueueCounts,
  reasonOf,
  unknownQueue,
  withoutCredentials,
} from "../queue/admin";
export { type BatchJob, createEnqueuer, type Enqueuer, type EnqueuerSettings } from "../queue/enqueuer";
export { BATCH_DEFAULTS, type BatchOptions } from "../queue/group-commit";
export { JOB_OUTCOMES, type JobOutcomeCode, type JobRunResult } from "../queue/job-outcomes";
export { fromJobText, isWellFormedText, LONE_SURROGATE, readableJobText, toJobText } from "../queue/job-text";
export type { EnqueueHook, EnqueueInfo, EnqueueTrace, JobTraceContext } from "../queue/job-trace";
export {
  type JobOutcome,
  type QueueIdentity,
  QueueWorker,
  type QueueWorkerOptions,
  type WorkerErrorInfo,
} from "../queue/queue-worker";
export {
  type JobRun,
  type QueuedDelivery,
  type ReadJob,
  readQueuedDelivery,
  toQueuedDelivery,
  type WorkerContext,
} from "../queue/queued-delivery";
export {
  type EngineOptionNames,
  pickWorkerOptions,
  type ResolvedEnqueueOptions,
  type RetryBackoff,
  resolveEnqueueOptions,
  type SharedEnqueueOptions,
  type SharedQueueDefaults,
  type SharedWorkerOptions,
  type WorkerSetup,
} from "../queue/shared-options";
export { Dispatcher, type ErrorListener } from "../receiver/dispatcher";
export type { HandlerRun, OutcomeListener } from "../receiver/outcome";
