import { hapiServer } from "../recipes/hapi";
import { sendOverHttp } from "./http-client";
import { describeConformance } from "./suite";
import { type AnyReceiver, type RunningApp, WEBHOOK_PATH } from "./target";

async function start(server: ReturnType<typeof hapiServer>): Promise<RunningApp> {
  await server.start();
  return {
    send: (request) => sendOverHttp(server.info.uri, WEBHOOK_PATH, request),
    close: () => server.stop(),
  };
}

describeConformance({
  name: "Hapi recipe (payload: { parse: false, output: 'data' })",
  buffersBody: true,
  start: (receiver: AnyReceiver) => start(hapiServer(receiver)),
  startWithBodyParsedFirst: (receiver: AnyReceiver) => start(hapiServer(receiver, { parse: true })),
});
