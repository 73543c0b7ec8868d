import type { HeaderSource } from "../http/headers";
import type { EventMap } from "./events";

/** What every handler learns about a delivery besides the event, whether it runs in the request or in a worker. */
export interface DeliveryInfo {
  /** The event type, as read by `typeOf`. */
  type: string;
  /**
   * The dedup key: `event:<id>` when the event has an id, else `signature:<matched v1>`; prefixed with
   * `endpoint:<label, URI-encoded>:` when the secret resolver named an endpoint.
   */
  deliveryKey: string;
  /** The signed timestamp, Unix seconds. */
  timestamp: number;
  /** Which configured secret verified the delivery (its place in the list, expired ones included). */
  secretIndex: number;
  /** The endpoint label the secret resolver gave, if any. */
  endpoint?: string | undefined;
}

/** What a Receiver's handler learns about the delivery besides the event. */
export interface DeliveryContext extends DeliveryInfo {
  /** The body bytes the signature was verified over (Content-Encoding undone). */
  verifiedBody: Uint8Array;
  headers: HeaderSource;
}

/** A handler may return anything; a promise it returns is awaited, and a rejection counts as a failure. */
export type Handler<Event, Context = DeliveryContext> = (event: Event, context: Context) => unknown;

/** Every event of a map, as a union: what `onAny` handlers receive. */
export type AnyEvent<Events extends EventMap> = Events[keyof Events];
