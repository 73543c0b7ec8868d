import type { IncomingMessage, ServerResponse } from "node:http";

const RAW_BODY = Symbol("@tidings/express raw body");

type Captured = IncomingMessage & { [RAW_BODY]?: Buffer };

/**
 * body-parser's `verify` option: keeps the bytes the parser read, Content-Encoding already undone, for the webhook.
 * `app.use(express.json({ verify: captureRawBody }))`
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
