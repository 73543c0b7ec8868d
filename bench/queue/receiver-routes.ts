/** The queue receiver's routes beside core's adapter and ideal ones: the adapter with batching on and off, explicitly. */
export const BATCHED_ROUTE = "/webhooks-batched";
export const UNBATCHED_ROUTE = "/webhooks-unbatched";
