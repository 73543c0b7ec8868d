/** The transactions suite's sides: the hand-written base, and ours. */
export const REQUEST_SIDES = ["ideal", "adapter"] as const;
export type RequestSide = (typeof REQUEST_SIDES)[number];
export const WORKER_SIDES = ["bare", "ours"] as const;
export type WorkerSide = (typeof WORKER_SIDES)[number];
