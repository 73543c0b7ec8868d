import { createPagesHandler } from "@tidings/next";
import { SIGNATURE_HEADER } from "../../lib/deliveries";
import { answerInline } from "../inline-routes";
import { ANSWER_BODY, ANSWER_HEADERS, ROUTES, readRequestBody, type StartApp } from "../routes";
import { adapterByPath } from "./adapter-by-path";
import { listen } from "./listen";

/**
 * The Pages Router API route handler (`export default createPagesHandler(receiver)`, bodyParser off) on a plain
 * node:http server: Next.js hands API routes Node's request and response, which is what this passes.
 */
export const start: StartApp = ({ receivers, hooks }) => {
  const adapters = adapterByPath(receivers, createPagesHandler);
  return listen(async (req, res) => {
    if (req.method !== "POST") return void res.writeHead(404).end();
    switch (req.url) {
      case ROUTES.bare:
        await hooks.arrive("bare", await readRequestBody(req));
        return void res.writeHead(200, ANSWER_HEADERS).end(ANSWER_BODY);
      case ROUTES.ideal:
      case ROUTES.idealDedup: {
        const route = req.url === ROUTES.ideal ? "ideal" : "idealDedup";
        const body = await readRequestBody(req);
        const status = await answerInline(route, body, req.headers[SIGNATURE_HEADER] as string | undefined, hooks);
        if (status !== 200) return void res.writeHead(status).end();
        return void res.writeHead(200, ANSWER_HEADERS).end(ANSWER_BODY);
      }
      default: {
        const adapter = adapters.get(req.url ?? "");
        return adapter ? adapter(req, res) : void res.writeHead(404).end();
      }
    }
  });
};
