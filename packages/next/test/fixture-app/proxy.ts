// Its mere presence makes Next.js buffer (at most 10 MB of) the body of every request it matches.
export function proxy(): undefined {
  return undefined;
}

export const config = { matcher: "/proxied-webhooks" };
