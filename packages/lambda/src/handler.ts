import type { EventMap, Receiver } from "@tidings/core";
import { decodeWireBody } from "@tidings/core/node";
import type { LambdaHttpEvent, LambdaHttpResult } from "./events";
import { eventBodyBytes, eventHeaders, eventMethod, eventTarget } from "./request";
import { lambdaResult } from "./response";

export type LambdaHttpHandler = (event: LambdaHttpEvent, context?: unknown) => Promise<LambdaHttpResult>;

/**
 * A Lambda handler for webhook deliveries from API Gateway (REST proxy, HTTP API), a Function URL or an ALB:
 * `export const handler = createLambdaHandler(receiver)`. Answers in the source's own result shape. Never throws.
 */
export function createLambdaHandler<Events extends EventMap>(receiver: Receiver<Events>): LambdaHttpHandler {
  return async (event) => {
    const headers = eventHeaders(event);
    const result = await receiver.handle({
      method: eventMethod(event),
      headers,
      readBody: ({ maxBodyBytes }) => decodeWireBody(eventBodyBytes(event), headers, maxBodyBytes),
      target: () => eventTarget(event),
    });
    return lambdaResult(event, result);
  };
}
