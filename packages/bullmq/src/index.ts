export type { FailedDelivery, QueueAdmin, QueueCounts, WorkerContext, WorkerErrorInfo } from "@tidings/core/dispatch";
export { type InspectedQueue, listFailed, openQueueAdmin, queueCounts, retryFailed } from "./admin";
export { ENQUEUE_DEFAULTS, type EnqueueOptions, type EnqueueTarget, enqueueTo } from "./enqueue";
export { jobIdFor } from "./job-id";
export { type CreateWorkerOptions, createWorker, DeliveryWorker } from "./worker";
