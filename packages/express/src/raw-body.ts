import type { IncomingMessage, ServerResponse } from "node:http";

const RAW_BODY = Symbol("@tidings/express raw body");

type Captured = IncomingMessage & { [RAW_BODY]?: Buffer };

/**
 * body-parser's `verify` option: keeps the bytes the parser read, Content-Encoding already undone, for the webhook.
 * `app.use(express.json({ verify: captureRawBody }))`
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { captureRawBody, webhookMiddleware } from "@tidings/express";
 * import express from "express";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * const app = express();
 * // A global JSON parser that must stay first: it keeps the bytes, and the webhook verifies those.
 * app.use(express.json({ verify: captureRawBody, limit: receiver.maxBodyBytes }));
 * app.post("/webhooks", webhookMiddleware(receiver));
 * ```
 */
export function captureRawBody(req: IncomingMessage, _res: ServerResponse, buf: Buffer): void {
  (req as Captured)[RAW_BODY] = buf;
}

/** The bytes a parser already read: `express.raw()`'s Buffer body, else what `captureRawBody` kept. */
export function parsedRawBody(req: IncomingMessage & { body?: unknown }): Buffer | undefined {
  const { body } = req;
  // No parser ran (the usual case for a webhook route): nothing was captured either, so skip that lookup.
  if (body === undefined) return undefined;
  return Buffer.isBuffer(body) ? body : (req as Captured)[RAW_BODY];
}
