import type { EventMap, Receiver } from "@tidings/core";

export const WEBHOOK_PATH = "/webhooks";
/** The parameterised route a multi-endpoint app mounts, as Express, Fastify, Koa, Hono and NestJS write it. */
export const PARAM_ROUTE = "/webhooks/:account";

/** A request as it goes over the wire: the body bytes are sent exactly as given. */
export interface WireRequest {
  method: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** Where it is sent, query included; WEBHOOK_PATH by default. */
  path?: string;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the client does after the first bytes of the body: goes away, or sends nothing more. */
export type PartialEnding = "abort" | "stall";

export interface RunningApp {
  /** Where the app listens on loopback (`http://127.0.0.1:<port>`), for clients that write the bytes themselves. */
  url?: string;
  send(request: WireRequest): Promise<WireResponse>;
  /**
   * Announces the whole body in Content-Length but sends only its first `bytes`, then aborts (resolves once the
   * connection is gone, with no answer) or stalls (resolves with the answer the server gives a stalled body).
   */
  sendPartial?(request: WireRequest, bytes: number, ending: PartialEnding): Promise<WireResponse | undefined>;
  close(): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: targets mount receivers of any event map
export type AnyReceiver = Receiver<EventMap> | Receiver<any>;

/** One adapter behind a real app. Each test starts its own app with its own receiver. */
export interface ConformanceTarget {
  name: string;
  /** The app with the webhook mounted the way the adapter's README says, for every method, at WEBHOOK_PATH. */
  start(receiver: AnyReceiver): Promise<RunningApp>;
  /**
   * The platform reads the whole body before the handler runs (API Gateway, Hapi's `output: "data"`): a client that
   * stalls or goes away mid-body never reaches the handler, so the partial-body cases do not apply.
   */
  buffersBody?: true;
  /**
   * Web-standard targets: the app as a function of a Web `Request`, called in process (Hono's `app.fetch`, the App
   * Router's exported handler), so a test can hand it a Request built by code, which no HTTP client can send.
   */
  fetchInProcess?(receiver: AnyReceiver): (request: Request) => Promise<Response>;
  /** The same app, but with the framework's usual JSON body parser reading the body before the webhook (a mounting mistake). */
  startWithBodyParsedFirst(receiver: AnyReceiver): Promise<RunningApp>;
  /** The webhook mounted at PARAM_ROUTE (or the framework's way of writing it), for secret resolvers. */
  paramRoute?: {
    start(receiver: AnyReceiver): Promise<RunningApp>;
    /** The `route` the adapter reports: the pattern, or undefined where the framework does not tell it. */
    route: string | undefined;
  };
}
