import { getRequestListener } from "@hono/node-server";
import { createRouteHandler } from "@tidings/next";
import { SIGNATURE_HEADER } from "../../lib/deliveries";
import { answerInline, INLINE_ROUTES } from "../inline-routes";
import { ANSWER_BODY, ANSWER_HEADERS, ROUTES, type StartApp } from "../routes";
import { adapterByPath } from "./adapter-by-path";
import { listen } from "./listen";

/**
 * The App Router route handler (`export const POST = createRouteHandler(receiver)`) without a Next.js server: a plain
 * node:http server turns each request into a Web `Request` (@hono/node-server's listener, the conversion Next.js
 * also does) and routes by path. What it measures is the handler; Next.js's own routing and rendering layers
 * would add the same cost to every route.
 */
export const start: StartApp = ({ receivers, hooks }) => {
  const answer = () => new Response(ANSWER_BODY, { status: 200, headers: ANSWER_HEADERS });
  const routes: Record<string, (request: Request) => Promise<Response>> = {
    [ROUTES.bare]: async (request) => {
      await hooks.arrive("bare", await request.arrayBuffer());
      return answer();
    },
    ...Object.fromEntries(
      INLINE_ROUTES.map((route) => [
        ROUTES[route],
        async (request: Request) => {
          const body = new Uint8Array(await request.arrayBuffer());
          const status = await answerInline(route, body, request.headers.get(SIGNATURE_HEADER) ?? undefined, hooks);
          return status === 200 ? answer() : new Response(null, { status });
        },
      ]),
    ),
    ...Object.fromEntries(adapterByPath(receivers, createRouteHandler)),
  };
  return listen(
    getRequestListener((request) => {
      const route = routes[new URL(request.url).pathname];
      return route && request.method === "POST" ? route(request) : new Response(null, { status: 404 });
    }),
  );
};
