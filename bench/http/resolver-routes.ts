import type { ResolvedEndpoint, SecretRequest } from "@tidings/core";
import { SECRET } from "../lib/deliveries";

/**
 * The adapter with a secret resolver instead of a fixed secret, as a multi-endpoint app mounts it: the resolver looks
 * the endpoint up by the request's path, synchronously (an in-memory table) or asynchronously (what a database
 * lookup returns, here already settled so only the promise's cost counts).
 */
export const RESOLVER_ROUTES = {
  resolverSync: "/webhooks-resolver-sync",
  resolverAsync: "/webhooks-resolver-async",
} as const;

const ENDPOINTS = new Map<string, ResolvedEndpoint>(
  Object.values(RESOLVER_ROUTES).map((path) => [path, { secret: SECRET, endpoint: "acct_bench" }]),
);

export const syncResolver = (request: SecretRequest) => ENDPOINTS.get(request.path);
export const asyncResolver = (request: SecretRequest) => Promise.resolve(ENDPOINTS.get(request.path));
