/**
 * The receiving side of the queue benchmark, on node:http: argv engine, adapter queue, ideal queue, and optionally
 * a batched and an unbatched queue.
 *   /webhooks            core's Node request handler + a Receiver (MemoryStore dedup) + enqueueTo(queue), its defaults
 *   /ideal               by hand: read the body, verify inline, parse, add a job with the same data, id and options
 *                        (the event, its type, key and timestamp, the body's SHA-256): one add per request
 *   /webhooks-batched    as /webhooks with enqueueTo(queue, { batch: BATCH_DEFAULTS })
 *   /webhooks-unbatched  as /webhooks with enqueueTo(queue, { batch: false })
 * Both answer the Receiver's 200 `{"received":true}` once the engine has stored the job.
 */
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { createReceiver } from "@tidings/core";
import { BATCH_DEFAULTS } from "@tidings/core/dispatch";
import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";
import { listenServer } from "../http/apps/listen";
import { verifyInline } from "../http/ideal";
import { ANSWER_BODY, ANSWER_HEADERS, ROUTES, readRequestBody } from "../http/routes";
import { serveCommands } from "../lib/children";
import { SECRET, SIGNATURE_HEADER } from "../lib/deliveries";
import { type EngineId, openEngine, type ParsedEvent } from "./engines/engine";
import { BATCHED_ROUTE, UNBATCHED_ROUTE } from "./receiver-routes";

const TIMESTAMP = /(?:^|,)\s*t=(\d+)/;

const [engineId, adapterQueue = "", idealQueue = "", batchedQueue, unbatchedQueue] = process.argv.slice(2);
const engine = await openEngine(engineId as EngineId);
const receiver = createReceiver({ secret: SECRET }).onAny(engine.enqueueTo(adapterQueue));
const receiverOn = (queue: string | undefined, batch: typeof BATCH_DEFAULTS | false) =>
  queue === undefined ? undefined : createReceiver({ secret: SECRET }).onAny(engine.enqueueTo(queue, { batch }));
const batched = receiverOn(batchedQueue, BATCH_DEFAULTS);
const unbatched = receiverOn(unbatchedQueue, false);
const sendIdeal = await engine.idealSender(idealQueue);

const server = createServer(async (req, res) => {
  if (req.url === ROUTES.adapter) {
    return writeNodeResponse(res, await handleNodeRequest(receiver, req, { consumedFix: "n/a" }));
  }
  const other = req.url === BATCHED_ROUTE ? batched : req.url === UNBATCHED_ROUTE ? unbatched : undefined;
  if (other !== undefined) return writeNodeResponse(res, await handleNodeRequest(other, req, { consumedFix: "n/a" }));
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
// Under callgrind on a loaded machine, a pause between windows can outlast the default 5 s: a client reusing a
// connection the server was closing at that moment would see it hang up.
server.keepAliveTimeout = 0;
const app = await listenServer(server);

serveCommands({
  port: () => app.port,
  /** User + system CPU time of this process so far, µs. */
  cpu: () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  },
  /** The engine writes made to each route's queue so far, and the jobs they held. */
  writes: () => ({
    adapter: engine.writes(adapterQueue),
    ideal: engine.writes(idealQueue),
    ...(batchedQueue === undefined ? {} : { batched: engine.writes(batchedQueue) }),
    ...(unbatchedQueue === undefined ? {} : { unbatched: engine.writes(unbatchedQueue) }),
  }),
  jobs: async () => ({
    adapter: await engine.jobs(adapterQueue),
    ideal: await engine.jobs(idealQueue),
    ...(batchedQueue === undefined ? {} : { batched: await engine.jobs(batchedQueue) }),
    ...(unbatchedQueue === undefined ? {} : { unbatched: await engine.jobs(unbatchedQueue) }),
  }),
});
