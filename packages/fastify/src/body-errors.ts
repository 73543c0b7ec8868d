import { payloadTooLarge, type ReceiveResult, WebhookVerificationError } from "@tidings/core";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { type AnyReceiver, sendResult } from "./handler";

// core's bodyTruncated(received, declared) needs the received count, which Fastify's error does not carry.
function lengthMismatch(declared: string | undefined): WebhookVerificationError {
  return new WebhookVerificationError(
    "body_truncated",
    `The body did not have the ${declared} bytes its Content-Length header announced: it was cut off or changed on the way (a proxy, or a preParsing hook that replaced the body stream).`,
  );
}

/** Fastify's own errors from reading the body, as the Receiver's errors; undefined for any other error. */
function asReceiverError(error: FastifyError, request: FastifyRequest, maxBodyBytes: number): Error | undefined {
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return payloadTooLarge(maxBodyBytes);
  if (error.code === "FST_ERR_CTP_INVALID_CONTENT_LENGTH") return lengthMismatch(request.headers["content-length"]);
  return undefined;
}

/** Answers through `handle`, with a body reader that fails, so onError and logging behave as for any failure. */
function refuse(receiver: AnyReceiver, request: FastifyRequest, error: Error): Promise<ReceiveResult> {
  return receiver.handle({ method: request.method, headers: request.headers, readBody: () => Promise.reject(error) });
}

/** The scope's error handler: body errors answered in our format; everything else goes on to the app's handler. */
export function bodyErrorHandler(receiver: AnyReceiver) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const refused = asReceiverError(error, request, receiver.maxBodyBytes);
    if (refused === undefined) throw error;
    return sendResult(reply, await refuse(receiver, request, refused));
  };
}
