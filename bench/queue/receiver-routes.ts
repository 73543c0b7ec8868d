import { ROUTES } from "../http/routes";
import type { Writes } from "./engines/writes";

/** The queue receiver's routes beside core's adapter and ideal ones: the adapter with batching on and off, explicitly. */
export const BATCHED_ROUTE = "/webhooks-batched";
export const UNBATCHED_ROUTE = "/webhooks-unbatched";

/** Group commit's three routes, by what the report calls them: their paths on the receiver. */
export const BATCH_ROUTES = {
  batched: BATCHED_ROUTE,
  oneAddPerRequest: ROUTES.ideal,
  unbatched: UNBATCHED_ROUTE,
} as const;
export type BatchRoute = keyof typeof BATCH_ROUTES;
export type BatchBaseline = Exclude<BatchRoute, "batched">;

/** Each route's queue, as the receiver's `jobs` and `writes` commands name it. */
export const BATCH_QUEUES: Record<BatchRoute, string> = {
  batched: "batched",
  oneAddPerRequest: "ideal",
  unbatched: "unbatched",
};

/** The comparison is at 32 concurrent connections. */
export const BATCH_CONNECTIONS = 32;

interface Receiver {
  call<T>(command: string, input?: unknown): Promise<T>;
}

/** Jobs per engine write on a route since the previous reading of that route: how big its batches were. */
export class WriteReadings {
  readonly #receiver: Receiver;
  readonly #last = new Map<BatchRoute, Writes>();

  constructor(receiver: Receiver) {
    this.#receiver = receiver;
  }

  async jobsPerWrite(route: BatchRoute): Promise<number> {
    const now = (await this.#receiver.call<Record<string, Writes>>("writes"))[BATCH_QUEUES[route]];
    if (now === undefined) throw new Error(`the receiver has no ${BATCH_QUEUES[route]} queue`);
    const before = this.#last.get(route) ?? { writes: 0, jobs: 0 };
    this.#last.set(route, { ...now });
    return (now.jobs - before.jobs) / (now.writes - before.writes);
  }
}

/** Fails unless every route's queue holds one job per delivery answered 200 (a 200 means the job is stored). */
export async function expectJobs(receiver: Receiver, sent: number): Promise<void> {
  const jobs = await receiver.call<Record<string, number>>("jobs");
  for (const queue of Object.values(BATCH_QUEUES)) {
    if (jobs[queue] !== sent) throw new Error(`${queue}: ${jobs[queue]} jobs for ${sent} deliveries answered 200`);
  }
}
