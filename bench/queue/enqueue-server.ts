// The server that enqueue-instructions.ts measures: two routes on node:http that both hand a verified delivery to
// BullMQ (real Redis at REDIS_PORT), one job per event, and answer 200 once Redis has stored the job.
//   /adapter  core's Node request handler + a Receiver (MemoryStore dedup) + enqueueTo(queue)
//   /ideal    by hand: read the body, verify, JSON.parse, the same job data and job id, queue.add, answer
// Prints {"port": n} once listening.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { enqueueTo, jobIdFor } from "@tidings/bullmq";
import { createReceiver, verify } from "@tidings/core";
import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";
import { Queue } from "bullmq";
import { SECRET, SIGNATURE_HEADER } from "../lib/deliveries";

const queue = new Queue("bench-deliveries", {
  connection: { host: "127.0.0.1", port: Number(process.env.REDIS_PORT) },
});
const receiver = createReceiver({ secret: SECRET }).onAny(enqueueTo(queue));
const ANSWER = '{"received":true}';
const JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: "exponential", delay: 1000 },
  removeOnComplete: { age: 86_400 },
  removeOnFail: false,
};

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

async function ideal(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readBody(request);
  const { timestamp, secretIndex } = verify(body, request.headers[SIGNATURE_HEADER] as string, SECRET);
  const event = JSON.parse(body.toString("utf8")) as { id: string; type: string };
  const deliveryKey = `event:${event.id}`;
  const data = {
    event,
    type: event.type,
    deliveryKey,
    timestamp,
    secretIndex,
    verifiedBodySha256: createHash("sha256").update(body).digest("hex"),
  };
  await queue.add(event.type, data, { ...JOB_OPTIONS, jobId: jobIdFor(deliveryKey) });
  response.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(ANSWER);
}

const server = createServer((request, response) => {
  if (request.url === "/ideal") {
    ideal(request, response).catch((error) => response.writeHead(500).end(String(error)));
    return;
  }
  handleNodeRequest(receiver, request, { consumedFix: "n/a" }).then((result) => writeNodeResponse(response, result));
});
server.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
