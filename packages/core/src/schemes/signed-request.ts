import type { SignedRequest } from "./scheme";

/** The request a URL-signed scheme reads; without one, how to give it. `signs`: what the sender signs, in a sentence. */
export function requireRequest(request: SignedRequest | undefined, signs: string): SignedRequest {
  if (request) return request;
  throw new TypeError(
    `${signs}: give the Receiver \`publicUrl\` (or \`trustProxy\` behind a proxy that sets X-Forwarded-Proto and ` +
      "X-Forwarded-Host), or a standalone verify `options.request` ({ method, url }).",
  );
}
