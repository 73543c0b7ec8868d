import type { EventMap, Receiver } from "@tidings/core";
import type { LambdaHttpEvent, LambdaHttpResult } from "./events";
import { eventRequest } from "./request";
import { lambdaResult } from "./response";

export type LambdaHttpHandler = (event: LambdaHttpEvent, context?: unknown) => Promise<LambdaHttpResult>;

/**
 * A Lambda handler for webhook deliveries from API Gateway (REST proxy, HTTP API), a Function URL or an ALB:
 * `export const handler = createLambdaHandler(receiver)`. Answers in the source's own result shape. Never throws,
 * whatever the event: one that is not an HTTP event object, or whose headers are not text, is answered 400.
 */
export function createLambdaHandler<Events extends EventMap>(receiver: Receiver<Events>): LambdaHttpHandler {
  return async (event: unknown) => lambdaResult(event, await receiver.handle(eventRequest(event)));
}
