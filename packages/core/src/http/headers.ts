/** Request headers as Web `Headers`, or as Node's lower-cased `IncomingHttpHeaders`-like record. */
export type HeaderSource =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** A header's value (repeated headers joined with ", "), or undefined. `name` must be lower-case. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof headers.get === "function")
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const value = (headers as Readonly<Record<string, string | readonly string[] | undefined>>)[name];
  return typeof value === "string" || value === undefined ? value : value.join(", ");
}
