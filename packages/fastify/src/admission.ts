import type { DeliverySlot } from "@tidings/core/adapter";
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { type AnyReceiver, sendResult } from "./handler";

/** Where the scope keeps each request's delivery slot, from its `onRequest` until it is answered. */
export const SLOT: unique symbol = Symbol("@tidings/fastify slot");

type WithSlot = FastifyRequest & { [SLOT]?: DeliverySlot | null };

export function slotOf(request: FastifyRequest): DeliverySlot | undefined {
  return (request as WithSlot)[SLOT] ?? undefined;
}

/**
 * `onRequest`: takes the delivery slot before Fastify runs the content-type parser, so `maxConcurrentDeliveries` bounds
 * the bodies being read. Past it, the Receiver answers 503 `overloaded` at once and the body is never read.
 */
export function admitHook(receiver: AnyReceiver) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const slot = receiver.admit();
    (request as WithSlot)[SLOT] = slot;
    if (slot.admitted) {
      done();
      return;
    }
    const refused = () => Promise.reject(new Error("not read: overloaded"));
    void receiver
      .handle({ method: request.method, headers: request.headers, readBody: refused, slot })
      .then((result) => sendResult(reply, result));
  };
}

/**
 * `onResponse` and `onRequestAbort`: the slot comes back on every path, also those that never reach the Receiver (an
 * app's hook answered first, the client went away before the body was parsed). Releasing twice releases once.
 */
export function releaseHook(request: FastifyRequest, _reply: unknown, done: HookHandlerDoneFunction): void {
  slotOf(request)?.release();
  done();
}
