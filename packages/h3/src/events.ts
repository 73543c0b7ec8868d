import type { NodeRequestLike } from "@tidings/core/node";

/**
 * An h3 v2 (Nitro 3) event: the request is a Web `Request`.
 *
 * @example
 * ```ts
 * import type { H3EventV2Like } from "@tidings/h3";
 * import type { H3Event } from "h3";
 *
 * // h3 v2's own event is one: what the handler reads of it, typed.
 * const accountOf = (event: H3EventV2Like) => (event.context?.params as { account?: string } | undefined)?.account;
 * export const account = (event: H3Event) => accountOf(event);
 * ```
 */
export interface H3EventV2Like {
  readonly req: Request;
  /** The router's match: `params` of `/webhooks/:account`. */
  readonly context?: { readonly params?: object | undefined } | undefined;
}

/**
 * An h3 v1 (Nitro 2, Nuxt 3 and 4) event: Node's request, or a Web `Request` when served through `toWebHandler`.
 *
 * @example
 * ```ts
 * import type { H3EventV1Like } from "@tidings/h3";
 * import type { H3Event } from "h3-v1"; // in a Nuxt or Nitro 2 app: "h3"
 *
 * // h3 v1's own event is one: the handler reads Node's request, or the Web one under toWebHandler.
 * const methodOf = (event: H3EventV1Like) => event.web?.request?.method ?? event.node.req.method;
 * export const method = (event: H3Event) => methodOf(event);
 * ```
 */
export interface H3EventV1Like {
  readonly node: { readonly req: NodeRequestLike & { readonly method?: string | undefined } };
  readonly web?: { readonly request?: Request | undefined } | undefined;
  /** The router's match: `params` of `/webhooks/:account` (Nitro: `server/api/webhooks/[account].ts`). */
  readonly context?: { readonly params?: object | undefined } | undefined;
}

/**
 * An event of either h3 generation: what `defineWebhookHandler`'s handler takes.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { defineWebhookHandler, type H3EventLike } from "@tidings/h3";
 * import { defineEventHandler } from "h3";
 *
 * const handle = defineWebhookHandler(createReceiver({ secret: process.env.WEBHOOK_SECRET! }));
 *
 * // A step of your own around the webhook handler, for an event of either generation.
 * async function timed(event: H3EventLike): Promise<Response> {
 *   const started = performance.now();
 *   const response = await handle(event);
 *   console.log(`webhook answered ${response.status} in ${Math.round(performance.now() - started)} ms`);
 *   return response;
 * }
 *
 * export default defineEventHandler(timed);
 * ```
 */
export type H3EventLike = H3EventV2Like | H3EventV1Like;

/**
 * What `defineWebhookHandler` returns: a handler both generations accept as an event handler.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { defineWebhookHandler, type WebhookEventHandler } from "@tidings/h3";
 *
 * // One handler per endpoint, each with its own secret, built once and mounted where the app routes them.
 * export const handlers: Record<string, WebhookEventHandler> = {
 *   "/webhooks/sms": defineWebhookHandler(createReceiver({ secret: process.env.SMS_WEBHOOK_SECRET! })),
 *   "/webhooks/email": defineWebhookHandler(createReceiver({ secret: process.env.EMAIL_WEBHOOK_SECRET! })),
 * };
 * ```
 */
export interface WebhookEventHandler {
  (event: H3EventLike): Promise<Response>;
  /** h3 v1 treats only marked functions as event handlers (what its `defineEventHandler` sets). */
  readonly __is_handler__: true;
}
