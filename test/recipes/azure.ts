// The Azure Functions recipe of packages/fetch/README.md ("Recipes"): the handler `app.http` registers.
import type { HttpRequest, HttpResponseInit } from "@azure/functions";
import type { EventMap, Receiver } from "@tidings/core";
import { createFetchHandler } from "@tidings/fetch";

export function azureWebhookHandler<Events extends EventMap>(receiver: Receiver<Events>) {
  const handle = createFetchHandler(receiver);
  return async (request: HttpRequest): Promise<HttpResponseInit> => {
    const { method, url, headers, body } = request;
    const init = { method, headers, body, duplex: "half" } as RequestInit;
    const response = await handle(new Request(url, init));
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  };
}
