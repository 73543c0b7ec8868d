import type { HandshakeRequest } from "./scheme";

// Senders' challenges are random tokens: printable ASCII, short. Anything else is not echoed.
const CHALLENGE = /^[\x21-\x7e]{1,512}$/;

/** The query parameters of a GET handshake, or undefined for any other request. */
export function getQuery({ method, url }: HandshakeRequest): URLSearchParams | undefined {
  if (method !== "GET" || url === undefined) return undefined;
  const query = url.indexOf("?");
  return query === -1 ? undefined : new URLSearchParams(url.slice(query + 1));
}

/** A challenge fit to echo: printable ASCII, at most 512 characters. */
export const echoable = (challenge: string | null | undefined): challenge is string =>
  typeof challenge === "string" && CHALLENGE.test(challenge);
