import { isPromiseLike } from "../ground/promise-like";
import { errorResult, type ReceiveResult } from "../http/result";
import type { IncomingRequest } from "./incoming";
import type { ReceiverParts, Step } from "./pipeline";
import { signedRequestFrom } from "./request-url";

/**
 * Checks the method (a request that is not a POST may be a scheme's handshake), then reads the body through the
 * adapter within the limits: the bytes, or the answer.
 */
export function readBody(
  parts: ReceiverParts,
  request: IncomingRequest,
  limits: Parameters<IncomingRequest["readBody"]>[0],
): Step<Uint8Array> {
  const { method } = request;
  const { reporter } = parts;
  if (method !== undefined && method !== "POST" && method.toUpperCase() !== "POST") {
    return (
      handshakeAnswer(parts, request, method) ??
      errorResult("method_not_allowed", `Deliveries are POSTed, not ${method}.`, { headers: { allow: "POST" } })
    );
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

/** The first answer a scheme's `handshake` gives to a request that is not a POST; a throwing one is a 500. */
function handshakeAnswer(parts: ReceiverParts, request: IncomingRequest, method: string): ReceiveResult | undefined {
  const { options, reporter } = parts;
  if (!options.readsRequest) return undefined;
  try {
    const seen = {
      method: method.toUpperCase(),
      url: signedRequestFrom(parts, request)?.url,
      headers: request.headers,
    };
    for (const scheme of options.schemes) {
      const answer = scheme.handshake?.(seen);
      if (answer) return answer;
    }
    return undefined;
  } catch (error) {
    return reporter.failure(error);
  }
}
