import { STATUS_CODES } from "node:http";
import type { ReceiveResult } from "@tidings/core/adapter";
import type { LambdaHttpResult } from "./events";
import { isFields } from "./fields";

/** The Receiver's answer in the shape the event's source expects. */
export function lambdaResult(event: unknown, result: ReceiveResult): LambdaHttpResult {
  const { status, headers, body } = result;
  const fields = isFields(event) ? event : {};
  const context = fields.requestContext;
  if (!isFields(context) || context.elb === undefined)
    return { statusCode: status, headers, body, isBase64Encoded: false };
  const statusDescription = `${status} ${STATUS_CODES[status] ?? ""}`.trimEnd();
  if (!isFields(fields.multiValueHeaders))
    return { statusCode: status, statusDescription, headers, body, isBase64Encoded: false };
  const multiValueHeaders: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers)) multiValueHeaders[name] = [value];
  return { statusCode: status, statusDescription, multiValueHeaders, body, isBase64Encoded: false };
}
