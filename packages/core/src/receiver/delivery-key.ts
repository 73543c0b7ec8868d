/**
 * The dedup key of a delivery in a dedup scope (the endpoint label, unless the resolver gave a `dedupScope`):
 * `endpoint:<scope>:<key>`, the scope encoded so that no scope can end early and take over another's keys (`a:event:x`
 * and `a` with the id `x:event:…`).
 */
export function endpointKey(scope: string, key: string): string {
  return `endpoint:${encodeLabel(scope)}:${key}`;
}

/**
 * `encodeURIComponent`, which throws on a lone surrogate. A label holding one (the resolver returns what it likes) is
 * written with each lone surrogate as `%uXXXX`, which `encodeURIComponent` never writes (its `%` is always followed
 * by two hex digits): so every two labels, well-formed or not, stay two keys, and no label fails the delivery.
 */
export function encodeLabel(label: string): string {
  try {
    return encodeURIComponent(label);
  } catch {
    return encodeIllFormed(label);
  }
}

function encodeIllFormed(label: string): string {
  let encoded = "";
  let start = 0;
  for (let i = 0; i < label.length; i++) {
    const unit = label.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = label.charCodeAt(i + 1);
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    encoded += `${encodeURIComponent(label.slice(start, i))}%u${unit.toString(16).toUpperCase()}`;
    start = i + 1;
  }
  return encoded + encodeURIComponent(label.slice(start));
}
