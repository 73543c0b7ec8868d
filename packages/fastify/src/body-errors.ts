import { WebhookVerificationError } from "@tidings/core";
import type { ReceiveResult } from "@tidings/core/adapter";
import { payloadTooLarge } from "@tidings/core/adapter";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { slotOf } from "./admission";
import { type AnyReceiver, sendResult } from "./handler";

/** The body reader's refusals, and Fastify's own size check, as the Receiver's errors; undefined for any other. */
function asReceiverError(error: FastifyError, maxBodyBytes: number): Error | undefined {
  if (error instanceof WebhookVerificationError) return error;
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return payloadTooLarge(maxBodyBytes);
  return undefined;
}

/** Answers through `handle`, with a body reader that fails, so onError and logging behave as for any failure. */
function refuse(receiver: AnyReceiver, request: FastifyRequest, error: Error): Promise<ReceiveResult> {
  const readBody = () => Promise.reject(error);
  return receiver.handle({ method: request.method, headers: request.headers, readBody, slot: slotOf(request) });
}

/** The scope's error handler: body errors answered in our format; everything else goes on to the app's handler. */
export function bodyErrorHandler(receiver: AnyReceiver) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const refused = asReceiverError(error, receiver.maxBodyBytes);
    if (refused === undefined) throw error;
    return sendResult(reply, await refuse(receiver, request, refused));
  };
}
