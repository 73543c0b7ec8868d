import { type Agent, type OutgoingHttpHeaders, request } from "node:http";
import type { DeliveryFactory } from "../http/deliveries";
import { ANSWER_BODY } from "../http/routes";
import { SIGNATURE_HEADER } from "../lib/deliveries";

/** One POST to the server on `port`: its status and answer. */
export function postOnce(port: number, path: string, headers: OutgoingHttpHeaders, body: Uint8Array, agent?: Agent) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, path, method: "POST", agent, headers }, (answer) => {
      let text = "";
      answer.setEncoding("utf8");
      answer.on("data", (chunk: string) => {
        text += chunk;
      });
      answer.on("end", () => resolve({ status: answer.statusCode ?? 0, text }));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** One signed delivery POSTed to `path`; rejects unless the answer is the Receiver's `{"received":true}`. */
async function post(agent: Agent, port: number, path: string, factory: DeliveryFactory): Promise<void> {
  const { body, header } = factory.next();
  const headers = { "content-type": "application/json", "content-length": body.length, [SIGNATURE_HEADER]: header };
  const { status, text } = await postOnce(port, path, headers, body, agent);
  if (text !== ANSWER_BODY) throw new Error(`${path}: ${status} ${text}`);
}

/** `amount` distinct deliveries over the agent's `connections` keep-alive connections, each waiting for its answer. */
export async function postDeliveries(
  agent: Agent,
  connections: number,
  port: number,
  path: string,
  factory: DeliveryFactory,
  amount: number,
): Promise<void> {
  let left = amount;
  const connection = async () => {
    while (left-- > 0) await post(agent, port, path, factory);
  };
  await Promise.all(Array.from({ length: connections }, connection));
}
