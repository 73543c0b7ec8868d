import { readWebBody } from "../body/web-request";
import type { EventMap } from "../receiver/events";
import type { Receiver } from "../receiver/receiver";

/** Handles a Web `Request` end to end: method, bounded raw read, receive, `Response`. Never throws. */
export async function handleWebRequest<Events extends EventMap>(
  receiver: Receiver<Events>,
  request: Request,
  consumedFix: string,
): Promise<Response> {
  const result = await receiver.handle({
    method: request.method,
    headers: request.headers,
    readBody: (limits) => readWebBody(request, limits, consumedFix),
  });
  return new Response(result.body, { status: result.status, headers: result.headers });
}
