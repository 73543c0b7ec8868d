// The Hapi recipe of packages/core/README.md ("Recipes"), as the conformance suite runs it.
import Hapi from "@hapi/hapi";
import type { EventMap, Receiver } from "@tidings/core";
import { decodeWireBody } from "@tidings/core/node";

export function hapiServer<Events extends EventMap>(receiver: Receiver<Events>, { parse = false } = {}) {
  const server = Hapi.server({ port: 0, host: "127.0.0.1" });
  server.route({
    method: "*",
    path: "/webhooks",
    // The bytes as they came, unparsed; `parse: true` (the default) is the mistake the suite also checks.
    options: { payload: { parse, output: "data" } },
    handler: async (request, h) => {
      const { headers } = request.raw.req;
      const result = await receiver.handle({
        method: request.method,
        headers,
        readBody: ({ maxBodyBytes }) => decodeWireBody(request.payload as Buffer, headers, maxBodyBytes),
        url: () => request.raw.req.url, // the path and query called, for a scheme that signs the URL
      });
      const response = h.response(result.body).code(result.status);
      for (const [name, value] of Object.entries(result.headers)) response.header(name, value);
      return response;
    },
  });
  return server;
}
