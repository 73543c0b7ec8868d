/**
 * The load generator, run as its own process pinned to its own core: autocannon sending distinct signed
 * deliveries to one route. Started by the runner; answers `run` commands over IPC.
 */
import autocannon from "autocannon";
import { serveCommands } from "../lib/children";
import { type Delivery, SIGNATURE_HEADER } from "../lib/deliveries";
import { DeliveryFactory, presignedPool } from "./deliveries";
import type { LoadResult, LoadRun } from "./protocol";
import { ANSWER_BODY } from "./routes";

function deliveries(run: LoadRun): () => Delivery {
  if (run.source === "on-demand") {
    const factory = new DeliveryFactory(run.bodyBytes, run.tag);
    return () => factory.next();
  }
  // autocannon builds one request per connection ahead of time as well: room for those.
  const pool = presignedPool(run.bodyBytes, run.tag, run.amount + run.connections * 2);
  let next = 0;
  return () => {
    const delivery = pool[next++];
    if (delivery === undefined) throw new Error("the pre-signed pool ran out");
    return delivery;
  };
}

async function load(run: LoadRun): Promise<LoadResult> {
  const nextDelivery = deliveries(run);
  let mismatches = 0;
  // From the first request built to the last answer: autocannon's own duration is rounded up to its sample tick.
  let firstRequestAt = 0;
  let lastAnswerAt = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({
    url: `http://127.0.0.1:${run.port}`,
    connections: run.connections,
    pipelining: 1,
    amount: run.amount,
    timeout: 30,
    // How often autocannon checks whether the run is over: the default, 1 s, would idle up to a second per run.
    sampleInt: 10,
    requests: [
      {
        method: "POST",
        path: run.path,
        setupRequest: (request) => {
          if (firstRequestAt === 0) firstRequestAt = performance.now();
          const { body, header } = nextDelivery();
          return {
            ...request,
            headers: { ...request.headers, "content-type": "application/json", [SIGNATURE_HEADER]: header },
            body,
          };
        },
        onResponse: (_status, body) => {
          lastAnswerAt = performance.now();
          if (body !== ANSWER_BODY) mismatches++;
        },
      },
    ],
  });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const seconds = (lastAnswerAt - firstRequestAt) / 1000;
  return {
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches,
    seconds,
    requestsPerSecond: result["2xx"] / seconds,
    latencyMeanMs: result.latency.mean,
    latencyP99Ms: result.latency.p99,
    startedAt: performance.timeOrigin + firstRequestAt,
    clientCpuShare: (used.user + used.system) / 1000 / wallMs,
  };
}

serveCommands({ run: (run: LoadRun) => load(run) });
