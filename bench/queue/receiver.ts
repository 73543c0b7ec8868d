/**
 * The receiving side of the queue benchmark, on node:http: argv engine, adapter queue, ideal queue, and optionally
 * an unbatched queue.
 *   /webhooks            core's Node request handler + a Receiver (MemoryStore dedup) + enqueueTo(queue): batched
 *   /ideal               by hand: read the body, verify inline, parse, add a job with the same data, id and options
 *                        (the event, its type, key and timestamp, the body's SHA-256): one add per request
 *   /webhooks-unbatched  as /webhooks with enqueueTo(queue, { batch: false })
 * Both answer the Receiver's 200 `{"received":true}` once the engine has stored the job.
 */
import { createHash } from "node:crypto";
import { createReceiver } from "@tidings/core";
import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";
import { listen } from "../http/apps/listen";
import { verifyInline } from "../http/ideal";
import { ANSWER_BODY, ANSWER_HEADERS, ROUTES, readRequestBody } from "../http/routes";
import { serveCommands } from "../lib/children";
import { SECRET, SIGNATURE_HEADER } from "../lib/deliveries";
import { type EngineId, openEngine, type ParsedEvent } from "./engines/engine";
import { UNBATCHED_ROUTE } from "./receiver-routes";

const TIMESTAMP = /(?:^|,)\s*t=(\d+)/;

const [engineId, adapterQueue = "", idealQueue = "", unbatchedQueue] = process.argv.slice(2);
const engine = await openEngine(engineId as EngineId);
const receiver = createReceiver({ secret: SECRET }).onAny(engine.enqueueTo(adapterQueue));
const unbatched =
  unbatchedQueue === undefined
    ? undefined
    : createReceiver({ secret: SECRET }).onAny(engine.enqueueTo(unbatchedQueue, { batch: false }));
const sendIdeal = await engine.idealSender(idealQueue);

const app = await listen(async (req, res) => {
  if (req.url === ROUTES.adapter) {
    return writeNodeResponse(res, await handleNodeRequest(receiver, req, { consumedFix: "n/a" }));
  }
  if (req.url === UNBATCHED_ROUTE && unbatched !== undefined) {
    return writeNodeResponse(res, await handleNodeRequest(unbatched, req, { consumedFix: "n/a" }));
  }
  if (req.url !== ROUTES.ideal) return void res.writeHead(404).end();
  const body = await readRequestBody(req);
  const header = req.headers[SIGNATURE_HEADER] as string | undefined;
  const event = verifyInline(body, header) as ParsedEvent | undefined;
  if (event === undefined) return void res.writeHead(400).end();
  await sendIdeal({
    event,
    type: event.type,
    deliveryKey: `event:${event.id}`,
    timestamp: Number(TIMESTAMP.exec(header as string)?.[1]),
    secretIndex: 0,
    verifiedBodySha256: createHash("sha256").update(body).digest("hex"),
  });
  res.writeHead(200, ANSWER_HEADERS).end(ANSWER_BODY);
});

serveCommands({
  port: () => app.port,
  /** User + system CPU time of this process so far, µs. */
  cpu: () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  },
  jobs: async () => ({
    adapter: await engine.jobs(adapterQueue),
    ideal: await engine.jobs(idealQueue),
    ...(unbatchedQueue === undefined ? {} : { unbatched: await engine.jobs(unbatchedQueue) }),
  }),
});
