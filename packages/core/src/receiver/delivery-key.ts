/**
 * The key a delivery is claimed and remembered under: its event id when the scheme (or `idOf`) finds one, else the
 * signature that matched (a value no attacker can vary), scoped by the endpoint's dedup scope when it has one. A
 * scheme whose sender signs no id makes one from what is signed (GitHub's `github:<signature>`), never from a header
 * the signature does not cover: such a value could be any other sender's event id. The match's signature is read only
 * when there is no id: a token's is the body's hash, made when read.
 */
export function deliveryKeyOf(
  id: string | undefined,
  match: { readonly signature: string },
  dedupScope: string | undefined,
): string {
  const key = id === undefined ? `signature:${match.signature}` : `event:${id}`;
  // Two scopes (endpoints, unless the resolver says otherwise) never suppress each other's events.
  return dedupScope === undefined ? key : endpointKey(dedupScope, key);
}

/**
 * The dedup key of a delivery in a dedup scope (the endpoint label, unless the resolver gave a `dedupScope`):
 * `endpoint:<scope>:<key>`, the scope encoded so that no scope can end early and take over another's keys (`a:event:x`
 * and `a` with the id `x:event:…`).
 */
export function endpointKey(scope: string, key: string): string {
  return `endpoint:${encodeLabel(scope)}:${key}`;
}

// A high surrogate with no low one after it, or a low one with no high one before it.
const LONE = /([\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/;

/**
 * `encodeURIComponent`, which throws on a lone surrogate. A label holding one (the resolver returns what it likes) is
 * written with each lone surrogate as `%uXXXX`, which `encodeURIComponent` never writes (its `%` is always followed
 * by two hex digits): so every two labels, well-formed or not, stay two keys, and no label fails the delivery.
 */
export function encodeLabel(label: string): string {
  try {
    return encodeURIComponent(label);
  } catch {
    // split() with a capturing group: well-formed runs at even places, the lone surrogates between them at odd ones.
    return label
      .split(LONE)
      .map((part, i) => (i % 2 ? `%u${part.charCodeAt(0).toString(16).toUpperCase()}` : encodeURIComponent(part)))
      .join("");
  }
}
