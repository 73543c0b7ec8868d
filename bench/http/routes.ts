import type { IncomingMessage } from "node:http";
import type { Receiver } from "@tidings/core";
import { RESOLVER_ROUTES } from "./resolver-routes";

/**
 * Every app serves the same POST routes, so the adapter is compared with hand-written code in its own framework:
 * - BARE: read the raw body, answer 200: the framework's own cost.
 * - IDEAL: also verify inline with node:crypto and parse the JSON, then call the handler: the least a correct
 *   receiver does by hand (no dedup).
 * - IDEAL_DEDUP: the ideal route plus the least dedup by hand (inline-dedup.ts): what deduplicating costs at best.
 * - ADAPTER: the @tidings adapter with the Receiver (MemoryStore dedup on) calling the same handler.
 * - RESOLVER_SYNC, RESOLVER_ASYNC: the adapter route with a secret resolver (resolver-routes.ts), for `÷ adapter`.
 * - ADAPTER_ON_OUTCOME: the adapter route with an empty `onOutcome` listener: what the Receiver's outcome hook costs.
 * - ADAPTER_OTEL_API, ADAPTER_OTEL_SDK: the adapter route with its Receiver instrumented by @tidings/opentelemetry,
 *   with the OpenTelemetry API alone (no SDK: no-op providers) and with the real SDK (telemetry.ts).
 * All of them write the same 200 JSON answer as the Receiver, with the cheapest write the framework offers.
 */
export const ROUTES = {
  bare: "/bare",
  ideal: "/ideal",
  idealDedup: "/ideal-dedup",
  adapter: "/webhooks",
  ...RESOLVER_ROUTES,
  adapterOnOutcome: "/webhooks-on-outcome",
  adapterOtelApi: "/webhooks-otel-api",
  adapterOtelSdk: "/webhooks-otel-sdk",
} as const;
export type Route = keyof typeof ROUTES;

/** The routes each app serves through its @tidings adapter, each with its own Receiver. */
export const ADAPTER_ROUTES = [
  "adapter",
  "resolverSync",
  "resolverAsync",
  "adapterOnOutcome",
  "adapterOtelApi",
  "adapterOtelSdk",
] as const;
export type AdapterRoute = (typeof ADAPTER_ROUTES)[number];

export const ANSWER_BODY = '{"received":true}';
export const ANSWER_HEADERS = { "content-type": "application/json; charset=utf-8" } as const;

/**
 * Called by each route's handler with what it holds (the body, the event): counts handled deliveries per route,
 * and may park the handler (memory benchmark) with those values kept alive, as a real handler would keep them.
 */
export interface RouteHooks {
  arrive(route: Route, holding: unknown): Promise<void> | undefined;
}

export interface AppContext {
  receivers: Record<AdapterRoute, Receiver>;
  hooks: RouteHooks;
  maxBodyBytes: number;
}

export interface RunningApp {
  port: number;
  close(): Promise<void>;
}

export type StartApp = (context: AppContext) => Promise<RunningApp>;

/**
 * The raw body of a Node request, as careful hand-written code reads it: chunks, one concat, and the chunk list
 * emptied so the listener does not keep the chunks alive. The listeners are inline arrows on purpose: tsx (esbuild
 * keepNames) wraps every named function expression in a `__name()` call, which would add about a microsecond per
 * request to the hand-written routes and not to the adapters (built by tsup).
 */
export function readRequestBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
    });
    request.once("end", () => {
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
      chunks.length = 0;
    });
    request.once("error", reject);
  });
}
