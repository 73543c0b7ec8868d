import type { HeaderSource } from "../http/headers";
import { isPromiseLike } from "../receiver/promise-like";
import type { Scheme } from "../schemes/scheme";
import type { RequestTarget, SecretRequest } from "./request-target";
import { type EndpointSecret, type SecretSet, toSecretSet } from "./secret-set";

/**
 * What a secret resolver returns for a request it knows: the endpoint's secret(s), and a label for it.
 *
 * @example
 * ```ts
 * import { createReceiver, type ResolvedEndpoint } from "@tidings/core";
 *
 * // stands in for your database: each account's secret, and the id of its record
 * const accounts = new Map([["acct_42", { secret: "whsec_abc", secretId: "sec_1" }]]);
 *
 * function endpointFor(account: string): ResolvedEndpoint | undefined {
 *   const found = accounts.get(account);
 *   return found && { secret: found.secret, endpoint: account, dedupScope: found.secretId };
 * }
 *
 * // app.post("/webhooks/:account", webhookMiddleware(receiver))
 * export const receiver = createReceiver({ secret: ({ params }) => endpointFor(params.account ?? "") });
 * ```
 */
export interface ResolvedEndpoint {
  secret: EndpointSecret;
  /** Names the endpoint: scopes the dedup key, reaches handlers as `context.endpoint`, and labels metrics. */
  endpoint?: string | undefined;
  /**
   * Scopes the dedup key instead of `endpoint`: endpoints given one scope dedup together. The signature covers the
   * body, not the URL, so a delivery captured at one endpoint verifies at every endpoint sharing its secret, and a
   * lookup that normalises (case, whitespace) finds one endpoint under several spellings: give all of them one
   * scope (the secret's record id, say), and the capture replayed there is a duplicate, not another run. Endpoints
   * in one scope suppress each other's event ids: never share one with an endpoint whose secret someone else holds.
   */
  dedupScope?: string | undefined;
  /**
   * How this endpoint's sender signs (`@tidings/core/schemes`), when one route serves several senders: the request is
   * read by it. List the route's schemes in the Receiver's `scheme` too: a request carrying none of their signature
   * headers is refused before the resolver is asked.
   */
  scheme?: Scheme | undefined;
}

/**
 * Finds the secret(s) for a request, sync or async. `undefined` (or `null`) means no endpoint is configured here:
 * the delivery is answered 404 `unknown_endpoint`. A throw or rejection (its database is down) is answered 503.
 *
 * @example
 * ```ts
 * import { createReceiver, type SecretResolver } from "@tidings/core";
 *
 * const secrets = new Map([["acct_42", ["whsec_new", "whsec_old"]]]); // stands in for your database
 *
 * // app.post("/webhooks/:account", webhookMiddleware(receiver))
 * const resolveSecret: SecretResolver = async ({ params }) => {
 *   const secret = secrets.get(params.account ?? "");
 *   return secret && { secret, endpoint: params.account };
 * };
 *
 * export const receiver = createReceiver({ secret: resolveSecret });
 * ```
 */
export type SecretResolver = (
  request: SecretRequest,
) => ResolvedEndpoint | undefined | null | PromiseLike<ResolvedEndpoint | undefined | null>;

/** The secrets a delivery verifies against, and the endpoint they belong to. */
export interface EndpointSecrets {
  secrets: SecretSet;
  endpoint: string | undefined;
  /** What scopes the dedup key: the resolver's `dedupScope`, else the endpoint label. */
  dedupScope: string | undefined;
  /** The scheme the resolver named, if any. */
  scheme?: Scheme | undefined;
}

function label(found: ResolvedEndpoint, name: "endpoint" | "dedupScope"): string | undefined {
  const value = found[name];
  if (value !== undefined && (typeof value !== "string" || value === "")) {
    throw new TypeError(`The secret resolver's ${name} must be a non-empty string`);
  }
  return value;
}

function toEndpointSecrets(
  found: ResolvedEndpoint | undefined | null,
  schemes: readonly Scheme[],
): EndpointSecrets | undefined {
  if (found === undefined || found === null) return undefined;
  const endpoint = label(found, "endpoint");
  const { scheme } = found;
  // Checked as configured secrets are: against the scheme it names (a TypeError if it names no scheme), else the
  // route's.
  const secrets = toSecretSet(found.secret, scheme ? [scheme] : schemes);
  return { secrets, endpoint, dedupScope: label(found, "dedupScope") ?? endpoint, scheme };
}

/** Asks the resolver about the request and checks what it returned, its secrets against the route's `schemes`. Sync when the resolver is. */
export function resolveEndpoint(
  resolver: SecretResolver,
  target: RequestTarget,
  headers: HeaderSource,
  schemes: readonly Scheme[],
): EndpointSecrets | undefined | Promise<EndpointSecrets | undefined> {
  const found = resolver({ path: target.path, route: target.route, params: target.params, headers });
  return isPromiseLike(found)
    ? Promise.resolve(found).then((known) => toEndpointSecrets(known, schemes))
    : toEndpointSecrets(found, schemes);
}
