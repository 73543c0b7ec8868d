import { isPromiseLike } from "../ground/promise-like";
import { errorResult } from "../http/result";
import type { IncomingRequest } from "./incoming";
import type { ReceiverParts, Step } from "./pipeline";

/** Checks the method, then reads the body through the adapter within the limits: the bytes, or the answer. */
export function readBody(
  { reporter }: ReceiverParts,
  request: IncomingRequest,
  limits: Parameters<IncomingRequest["readBody"]>[0],
): Step<Uint8Array> {
  const { method } = request;
  if (method !== undefined && method !== "POST" && method.toUpperCase() !== "POST") {
    return errorResult("method_not_allowed", `Deliveries are POSTed, not ${method}.`, { headers: { allow: "POST" } });
  }
  try {
    const reading = request.readBody(limits);
    return isPromiseLike(reading)
      ? Promise.resolve(reading).then(undefined, (error) => reporter.failure(error))
      : reading;
  } catch (error) {
    return reporter.failure(error);
  }
}
