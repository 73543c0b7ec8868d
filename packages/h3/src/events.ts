import type { NodeRequestLike } from "@tidings/core/node";

/** An h3 v2 (Nitro 3) event: the request is a Web `Request`. */
export interface H3EventV2Like {
  readonly req: Request;
  /** The router's match: `params` of `/webhooks/:account`. */
  readonly context?: { readonly params?: object | undefined } | undefined;
}

/** An h3 v1 (Nitro 2, Nuxt 3 and 4) event: Node's request, or a Web `Request` when served through `toWebHandler`. */
export interface H3EventV1Like {
  readonly node: { readonly req: NodeRequestLike & { readonly method?: string | undefined } };
  readonly web?: { readonly request?: Request | undefined } | undefined;
  /** The router's match: `params` of `/webhooks/:account` (Nitro: `server/api/webhooks/[account].ts`). */
  readonly context?: { readonly params?: object | undefined } | undefined;
}

export type H3EventLike = H3EventV2Like | H3EventV1Like;

/** What `defineWebhookHandler` returns: a handler both generations accept as an event handler. */
export interface WebhookEventHandler {
  (event: H3EventLike): Promise<Response>;
  /** h3 v1 treats only marked functions as event handlers (what its `defineEventHandler` sets). */
  readonly __is_handler__: true;
}
