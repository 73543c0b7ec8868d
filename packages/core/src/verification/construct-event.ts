import { type DeliveryEvent, parseEvent } from "../event";
import type { Secret } from "./secrets";
import type { SignatureHeaderInput } from "./signature-header";
import { parseVerifyArguments } from "./signed-delivery";
import type { VerifyOptions } from "./tolerance";
import { matchSignatureSync } from "./verify";
import { matchSignature } from "./verify-async";

/**
 * Verifies, then parses the body as a JSON object. The type parameter is an assertion about your payloads.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { constructEvent, SIGNATURE_HEADER, WebhookVerificationError } from "@tidings/core";
 *
 * createServer(async (req, res) => {
 *   const body = Buffer.concat(await req.toArray()); // the raw bytes, never a parsed body
 *   try {
 *     const event = constructEvent(body, req.headers[SIGNATURE_HEADER], process.env.WEBHOOK_SECRET!);
 *     console.log("verified", event.type);
 *     res.writeHead(200).end();
 *   } catch (error) {
 *     if (!(error instanceof WebhookVerificationError)) throw error;
 *     res.writeHead(error.status, { "content-type": "application/json" }).end(JSON.stringify({ error: error.code }));
 *   }
 * }).listen(3000);
 * ```
 */
export function constructEvent<Event extends object = DeliveryEvent>(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options?: VerifyOptions,
): Event {
  const delivery = parseVerifyArguments(payload, header, secret, options);
  matchSignatureSync(delivery, options, "constructEvent");
  return parseEvent(delivery.content.payload) as Event;
}

/**
 * `constructEvent` for every runtime (see `verifyAsync`).
 *
 * @example
 * ```ts
 * import { constructEventAsync, type MessageEvents, SIGNATURE_HEADER, WebhookVerificationError } from "@tidings/core";
 *
 * // A Cloudflare Worker (Web Crypto; node:crypto where the runtime has it).
 * export default {
 *   async fetch(request: Request, env: { WEBHOOK_SECRET: string }): Promise<Response> {
 *     const body = new Uint8Array(await request.arrayBuffer());
 *     try {
 *       const header = request.headers.get(SIGNATURE_HEADER);
 *       const event = await constructEventAsync<MessageEvents["message.delivered"]>(body, header, env.WEBHOOK_SECRET);
 *       console.log("delivered", event.data.id);
 *       return Response.json({ received: true });
 *     } catch (error) {
 *       if (!(error instanceof WebhookVerificationError)) throw error;
 *       return Response.json({ error: error.code }, { status: error.status });
 *     }
 *   },
 * };
 * ```
 */
export async function constructEventAsync<Event extends object = DeliveryEvent>(
  payload: unknown,
  header: SignatureHeaderInput,
  secret: Secret,
  options?: VerifyOptions,
): Promise<Event> {
  const delivery = parseVerifyArguments(payload, header, secret, options);
  await matchSignature(delivery, options);
  return parseEvent(delivery.content.payload) as Event;
}
