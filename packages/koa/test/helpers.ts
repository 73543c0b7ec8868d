import { sign } from "@tidings/core";
import type Koa from "koa";
import { listen as listenNode, recordingReceiver as recording } from "../../../test/support/node-app";

export { postBytes as post } from "../../../test/support/node-app";

export const SECRET = "whsec_koa_tests";

export const listen = (app: Koa) => listenNode(app.callback());

/** A signed JSON delivery, with whitespace that re-serialising a parsed body would lose. */
export function signedDelivery(id: string) {
  const body = Buffer.from(`{ "id": "${id}",  "type": "message.sent", "data": { "id": "msg_1" } }`);
  return { body, headers: { "content-type": "application/json", "service-signature": sign(body, SECRET) } };
}

export const recordingReceiver = () => recording(SECRET);
