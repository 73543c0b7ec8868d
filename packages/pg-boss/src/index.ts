export {
  type FailedDelivery,
  type FoundJob,
  type QueueAdmin,
  QueueAdminError,
  type QueueAdminErrorCode,
  type QueueCounts,
  type WorkerContext,
  type WorkerErrorInfo,
} from "@tidings/core/dispatch";
export {
  findJob,
  type InspectedQueue,
  listFailed,
  openQueueAdmin,
  type QueueAdminOptions,
  queueCounts,
  retryFailed,
} from "./admin";
export { QUEUE_DEFAULTS } from "./defaults";
export { type EnqueueOptions, type EnqueueTarget, enqueueTo, type PgBossJobOptions } from "./enqueue";
export { jobIdFor } from "./job-id";
export {
  type CreateWorkerOptions,
  createWorker,
  DeliveryWorker,
  type PgBossWork,
  type PgBossWorkOptions,
  type WorkerBoss,
} from "./worker";
