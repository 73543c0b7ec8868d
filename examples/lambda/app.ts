import { createReceiver } from "@tidings/core";
import { createLambdaHandler } from "@tidings/lambda";
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult } from "aws-lambda";
import type { AppOptions } from "../shared/config";
import { formatEvent, MESSAGE_EVENT_TYPES, MessageLog, messageNotFound } from "../shared/message-log";

type HttpEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;

/**
 * One function behind API Gateway for both routes: deliveries at /webhooks, statuses at GET /messages/{id}.
 * `export const handler = createHandler({ secret })`.
 */
export function createHandler({ secret, messages = new MessageLog(), log = console.log }: AppOptions) {
  const receiver = createReceiver({ secret }).on(MESSAGE_EVENT_TYPES, (event) => {
    messages.record(event);
    log(formatEvent(event));
  });
  const webhook = createLambdaHandler(receiver);

  return async (event: HttpEvent): Promise<APIGatewayProxyResult> => {
    const id = event.pathParameters?.id;
    if (id === undefined) return webhook(event);
    const record = messages.get(id);
    return {
      statusCode: record ? 200 : 404,
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify(record ?? messageNotFound(id)),
    };
  };
}
