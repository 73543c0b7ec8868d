import type { BodyLimits } from "../body/limits";
import type { RequestTarget, TargetSource } from "../endpoint/request-target";
import type { HeaderSource } from "../http/headers";
import type { DeliverySlot } from "./admission";

/**
 * A delivery whose body an adapter has already read.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import type { IncomingDelivery } from "@tidings/core/adapter";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 *
 * // A delivery an edge function stored as it came, handled later: its bytes, its headers, where it was sent.
 * export function handleStored(stored: { body: string; headers: Record<string, string>; path: string }) {
 *   const delivery: IncomingDelivery = {
 *     rawBody: Buffer.from(stored.body, "base64"),
 *     headers: stored.headers,
 *     target: { path: stored.path, params: {} },
 *   };
 *   return receiver.receive(delivery);
 * }
 * ```
 */
export interface IncomingDelivery {
  rawBody: Uint8Array;
  headers: HeaderSource;
  /** Where it was sent: what a secret resolver and outcome listeners are told. */
  target?: RequestTarget | undefined;
  /** The URL it was sent to (absolute, or its path and query), for a scheme that signs it (Twilio, Square). */
  url?: string | undefined;
  /** The request's method, for a scheme that signs it. Default `POST`. */
  method?: string | undefined;
}

/**
 * A request as an adapter sees it: the Receiver decides whether and how far to read the body.
 *
 * @example
 * ```ts
 * import type { Request } from "@hapi/hapi";
 * import { createReceiver } from "@tidings/core";
 * import type { IncomingRequest } from "@tidings/core/adapter";
 * import { decodeWireBody } from "@tidings/core/node";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 *
 * // A Hapi route with payload: { parse: false, output: "data" }: the bytes as sent, Content-Encoding still applied.
 * function incoming(request: Request): IncomingRequest {
 *   const { headers } = request.raw.req;
 *   return {
 *     method: request.method,
 *     headers,
 *     readBody: ({ maxBodyBytes }) => decodeWireBody(request.payload as Buffer, headers, maxBodyBytes),
 *   };
 * }
 *
 * export const handle = (request: Request) => receiver.handle(incoming(request));
 * ```
 */
export interface IncomingRequest {
  method?: string | undefined;
  headers: HeaderSource;
  /** May answer synchronously when the bytes are already at hand (a body parser's buffer). */
  readBody(limits: Required<BodyLimits>): Uint8Array | Promise<Uint8Array>;
  /** Where the request was sent; asked only when a secret resolver or an outcome listener needs it. */
  target?: TargetSource | undefined;
  /**
   * The URL the request came to, absolute (`https://host/path?query`) or its path and query (the `Host` header then
   * names the host); asked only for a scheme that signs it or answers a handshake.
   */
  url?: (() => string | undefined) | undefined;
  /** A slot taken with `receiver.admit()` before the framework read the body; `handle` then takes none of its own. */
  slot?: DeliverySlot | undefined;
}
