import type { Attributes } from "@opentelemetry/api";

/** The HTTP methods semantic conventions know; any other is recorded as `_OTHER` with the original beside it. */
const KNOWN_METHODS = new Set([
  "CONNECT",
  "DELETE",
  "GET",
  "HEAD",
  "OPTIONS",
  "PATCH",
  "POST",
  "PUT",
  "QUERY",
  "TRACE",
]);

/** `http.request.method` (and `http.request.method_original` for a method semantic conventions do not know). */
export function addMethod(attributes: Attributes, method: string | undefined): void {
  if (method === undefined) return;
  if (KNOWN_METHODS.has(method)) {
    attributes["http.request.method"] = method;
  } else {
    attributes["http.request.method"] = "_OTHER";
    attributes["http.request.method_original"] = method;
  }
}

/**
 * The delivery key, unless it holds the delivery's signature: an event without an id is deduplicated by its `v1`
 * (`signature:<hex>`, after an `endpoint:<label>:` prefix whose label is URI-encoded, so it holds no colon).
 */
export function recordableKey(deliveryKey: string): string | undefined {
  const key = deliveryKey.startsWith("endpoint:") ? deliveryKey.slice(deliveryKey.indexOf(":", 9) + 1) : deliveryKey;
  return key.startsWith("signature:") ? undefined : deliveryKey;
}

/** `error.type` of a thrown value: its class name, as semantic conventions ask; `_OTHER` for a non-Error. */
export function errorType(error: unknown): string {
  if (!(error instanceof Error)) return "_OTHER";
  return error.constructor?.name || error.name || "Error";
}
