/**
 * The webhook route's path, normalised as Nest normalises a controller's: `"webhooks"`, `"/webhooks"` and
 * `"webhooks/"` are all `/webhooks`, repeated slashes are one, and `""` is `/`.
 */
export function routePath(path: string): string {
  if (typeof path !== "string")
    throw new TypeError(`TidingsModule's path must be a string such as "webhooks" or "/webhooks", not ${typeof path}.`);
  return `/${path.replace(/\/+$/, "")}`.replace(/\/{2,}/g, "/");
}
