import type { HeaderSource } from "../http/headers";
import { contentCodings, decodeBody } from "./content-encoding";
import { withinLimit } from "./limits";

/**
 * Body bytes a platform handed over whole, as they came over the wire (Content-Encoding still applied): refused
 * over the limit, then decoded with the limit on the decoded size. For adapters that never see a stream
 * (AWS Lambda events, framework buffers).
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { decodeWireBody } from "@tidings/core/node";
 * import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from "aws-lambda";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 *
 * // An AWS Lambda function URL: the body arrives whole, base64 when binary, Content-Encoding still applied.
 * export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> {
 *   const bytes = Buffer.from(event.body ?? "", event.isBase64Encoded ? "base64" : "utf8");
 *   const result = await receiver.handle({
 *     method: event.requestContext.http.method,
 *     headers: event.headers,
 *     readBody: ({ maxBodyBytes }) => decodeWireBody(bytes, event.headers, maxBodyBytes),
 *   });
 *   return { statusCode: result.status, headers: result.headers, body: result.body };
 * }
 * ```
 */
export function decodeWireBody(
  bytes: Uint8Array,
  headers: HeaderSource,
  maxBodyBytes: number,
): Uint8Array | Promise<Uint8Array> {
  const codings = contentCodings(headers);
  const body = withinLimit(bytes, maxBodyBytes);
  return codings.length === 0 ? body : decodeBody(body, codings, maxBodyBytes);
}
