import type { EventMap, Receiver } from "@tidings/core";
import type { LambdaHttpEvent, LambdaHttpResult } from "./events";
import { eventRequest } from "./request";
import { lambdaResult } from "./response";

/**
 * The handler `createLambdaHandler` returns; it fits `@types/aws-lambda`'s `APIGatewayProxyHandler`,
 * `APIGatewayProxyHandlerV2`, `LambdaFunctionURLHandler` and `ALBHandler`.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { createLambdaHandler, type LambdaHttpHandler } from "@tidings/lambda";
 *
 * let webhook: LambdaHttpHandler | undefined;
 *
 * // The secret from Secrets Manager, through the AWS Parameters and Secrets Lambda Extension.
 * async function loadSecret(): Promise<string> {
 *   const response = await fetch("http://localhost:2773/secretsmanager/get?secretId=webhook-secret", {
 *     headers: { "X-Aws-Parameters-Secrets-Token": process.env.AWS_SESSION_TOKEN! },
 *   });
 *   return ((await response.json()) as { SecretString: string }).SecretString;
 * }
 *
 * // Built on the first invocation, once the secret is fetched.
 * export const handler: LambdaHttpHandler = async (event, context) => {
 *   webhook ??= createLambdaHandler(createReceiver({ secret: await loadSecret() }));
 *   return webhook(event, context);
 * };
 * ```
 */
export type LambdaHttpHandler = (event: LambdaHttpEvent, context?: unknown) => Promise<LambdaHttpResult>;

/**
 * A Lambda handler for webhook deliveries from API Gateway (REST proxy, HTTP API), a Function URL or an ALB:
 * `export const handler = createLambdaHandler(receiver)`. Answers in the source's own result shape. Never throws,
 * whatever the event: one that is not an HTTP event object, or whose headers are not text, is answered 400.
 *
 * @example
 * ```ts
 * // handler.ts: bundle it (esbuild, the Serverless Framework, SAM, CDK…) and point the route at `handler`.
 * import { createReceiver } from "@tidings/core";
 * import { createLambdaHandler } from "@tidings/lambda";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.on("message.delivered", (event) => console.log(`${event.data.id} delivered`));
 *
 * export const handler = createLambdaHandler(receiver);
 * ```
 */
export function createLambdaHandler<Events extends EventMap>(receiver: Receiver<Events>): LambdaHttpHandler {
  return async (event: unknown) => lambdaResult(event, await receiver.handle(eventRequest(event)));
}
