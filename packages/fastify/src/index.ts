import type { FastifyPluginCallback } from "fastify";
import fp from "fastify-plugin";
import { admitHook, releaseHook, SLOT } from "./admission";
import { bodyErrorHandler } from "./body-errors";
import { type AnyReceiver, bodyParser, webhookHandler } from "./handler";

/**
 * The plugin's options: the receiver and the route's path. Fastify checks them at `app.register`.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import tidings, { type TidingsFastifyOptions } from "@tidings/fastify";
 * import Fastify from "fastify";
 *
 * const options: TidingsFastifyOptions = {
 *   receiver: createReceiver({ secret: process.env.WEBHOOK_SECRET! }),
 *   path: "/webhooks",
 * };
 * await Fastify().register(tidings, options);
 * ```
 */
export interface TidingsFastifyOptions {
  /** The Receiver from `createReceiver()`: its secrets, handlers and `maxBodyBytes`. */
  receiver: AnyReceiver;
  /** The URL of the webhook route, e.g. "/webhooks". */
  path: string;
}

const tidings: FastifyPluginCallback<TidingsFastifyOptions> = (scope, { receiver, path }, done) => {
  // Only in this scope: the route gets the exact bytes, the app's other routes keep their parsers.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser("*", { bodyLimit: receiver.maxBodyBytes }, bodyParser(receiver));
  // Admission before the parser reads anything; the slot comes back when answered, or on any other way out.
  scope.decorateRequest(SLOT, null);
  scope.addHook("onRequest", admitHook(receiver));
  scope.addHook("onResponse", releaseHook);
  scope.addHook("onRequestAbort", (request, done) => releaseHook(request, undefined, done));
  scope.setErrorHandler(bodyErrorHandler(receiver));
  // `decompress: false` keeps @fastify/compress from inflating the body first: core undoes Content-Encoding itself.
  const route = { method: scope.supportedMethods, url: path, handler: webhookHandler(receiver), decompress: false };
  scope.route(route);
  done();
};

/**
 * Registers the webhook route in its own encapsulated scope: `await app.register(tidingsPlugin, { receiver, path })`.
 * Also the default export, as Fastify plugins are.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import tidings from "@tidings/fastify";
 * import Fastify from "fastify";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.on("message.delivered", (event) => console.log("delivered", event.data.id));
 *
 * const app = Fastify({ logger: true });
 * await app.register(tidings, { receiver, path: "/webhooks" }); // the app's other routes keep their JSON parser
 * await app.listen({ port: 3000 });
 * ```
 */
export const tidingsPlugin = fp(tidings, { name: "@tidings/fastify", fastify: "5.x", encapsulate: true });
export default tidingsPlugin;
