/** The queue receiver's route beside core's adapter and ideal ones: the adapter with `enqueueTo(queue, { batch: false })`. */
export const UNBATCHED_ROUTE = "/webhooks-unbatched";
