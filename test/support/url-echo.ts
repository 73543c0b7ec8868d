import { createReceiver } from "@tidings/core";
import { answer, defineScheme } from "@tidings/core/schemes";

// Shared by the adapter packages' own tests (imported by relative path).

const URL_ECHO = defineScheme({
  name: "url-echo",
  signatureHeader: "x-url-echo",
  // Every request that is not a POST is a "handshake" answered with the URL a URL-signing scheme would check.
  handshake: ({ url }) => answer(url ?? "(no url)", "text/plain; charset=utf-8"),
  read() {
    throw new Error("url-echo answers GET requests only");
  },
  typeOf: () => undefined,
  idOf: () => undefined,
  sign: () => ({}),
});

/**
 * A Receiver that answers a GET with the URL it rebuilt for it (what a scheme that signs the URL verifies against),
 * as plain text: an adapter's test asks it what URL the adapter handed over.
 */
export function urlEchoReceiver(options: { publicUrl?: string; trustProxy?: boolean } = {}) {
  return createReceiver({ scheme: URL_ECHO, secret: "whsec_url_echo", logger: { error() {} }, ...options });
}
