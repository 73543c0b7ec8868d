import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { createWorker, enqueueTo } from "@tidings/bullmq";
import { createReceiver } from "@tidings/core";
import { Queue } from "bullmq";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RedisServer } from "../../../test/support/redis-server";
import { until } from "../../../test/support/wait";
import { instrument } from "../src";
import { RecordingSdk, seconds } from "./sdk";
import { delivery, SECRET } from "./signed";

let redis: RedisServer;
beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(() => redis.stop());

it("a real BullMQ worker: a CONSUMER span per job run with its handlers, and job metrics by outcome", async () => {
  const connection = { host: "127.0.0.1", port: redis.port };
  const queue = new Queue("deliveries", { connection });
  const receiver = createReceiver({ secret: SECRET }).onAny(
    enqueueTo(queue, { attempts: 2, retryDelaySeconds: 0, retryBackoff: "fixed" }),
  );
  const sdk = new RecordingSdk();
  const worker = createWorker({ queue: queue.name, connection, logger: { error() {} } });
  let runs = 0;
  worker.on("message.failed", async function alertSupport() {
    if (++runs === 1) throw new Error("support desk unreachable");
  });
  instrument(worker, sdk.options);

  const { body, signature } = delivery({ type: "message.failed", id: "evt_job" });
  const headers = { "service-signature": signature };
  expect((await receiver.receive({ rawBody: new TextEncoder().encode(body), headers })).code).toBe("accepted");
  await queue.add("stray", { not: "a delivery" }, { jobId: "stray-1", attempts: 1 });
  await until(() => sdk.spanNamed("process deliveries").length >= 3, "three job runs traced");

  const jobs = sdk.spanNamed("process deliveries");
  expect(jobs).toHaveLength(3);
  const byOutcome = (code: string) => jobs.filter((span) => span.attributes["tidings.outcome"] === code);
  const [failed] = byOutcome("failed");
  const [completed] = byOutcome("completed");
  const [invalid] = byOutcome("invalid_job");
  const messaging = {
    "messaging.system": "bullmq",
    "messaging.operation.type": "process",
    "messaging.operation.name": "process",
    "messaging.destination.name": "deliveries",
  };
  const facts = {
    ...messaging,
    "messaging.message.id": "event%3Aevt_job",
    "tidings.event.type": "message.failed",
    "tidings.delivery_key": "event:evt_job",
    "tidings.secret_index": 0,
  };
  expect(failed?.attributes).toMatchObject({ ...facts, "tidings.job.attempt": 1, "error.type": "failed" });
  expect(failed?.status).toEqual({ code: SpanStatusCode.ERROR, message: "failed" });
  expect(completed?.attributes).toMatchObject({ ...facts, "tidings.job.attempt": 2 });
  expect(completed?.attributes["error.type"]).toBeUndefined();
  expect(completed?.status.code).toBe(SpanStatusCode.UNSET);
  expect(invalid?.attributes).toEqual({
    ...messaging,
    "tidings.outcome": "invalid_job",
    "messaging.message.id": "stray-1",
    "tidings.job.attempt": 1,
    "error.type": "invalid_job",
  });
  expect(invalid?.status.code).toBe(SpanStatusCode.ERROR);
  for (const job of jobs) {
    expect(job.kind).toBe(SpanKind.CONSUMER);
    // The receiver was not instrumented, so the jobs carry no trace context: each run is its own trace.
    expect(job.parentSpanContext).toBeUndefined();
    expect(job.links).toEqual([]);
  }

  const handlerOf = (job: typeof failed) => sdk.childrenOf(job as NonNullable<typeof job>);
  const [firstRun] = handlerOf(failed);
  expect([firstRun?.name, firstRun?.attributes["tidings.handler.name"]]).toEqual(["tidings.handler", "alertSupport"]);
  expect(firstRun?.status).toEqual({ code: SpanStatusCode.ERROR, message: "support desk unreachable" });
  expect(firstRun?.events.map((event) => event.name)).toEqual(["exception"]);
  expect(handlerOf(completed).map((span) => [span.name, span.status.code])).toEqual([
    ["tidings.handler", SpanStatusCode.UNSET],
  ]);
  expect(handlerOf(invalid)).toEqual([]);

  const attributes = { "tidings.event.type": "message.failed" };
  const jobCounts = await sdk.counter("tidings.jobs");
  expect(jobCounts).toHaveLength(3);
  expect(jobCounts).toEqual(
    expect.arrayContaining([
      { attributes: { "tidings.outcome": "failed", ...attributes }, value: 1 },
      { attributes: { "tidings.outcome": "completed", ...attributes }, value: 1 },
      { attributes: { "tidings.outcome": "invalid_job" }, value: 1 },
    ]),
  );
  const durations = await sdk.histogram("tidings.job.duration");
  expect(durations.map((point) => point.count)).toEqual([1, 1, 1]);
  const completedDuration = durations.find((point) => point.attributes["tidings.outcome"] === "completed");
  expect(completedDuration?.sum).toBeCloseTo(seconds((completed as NonNullable<typeof completed>).duration), 6);
  const handler = { "tidings.handler.name": "alertSupport", "tidings.handler.on": "message.failed", ...attributes };
  expect((await sdk.histogram("tidings.handler.duration")).map((point) => [point.attributes, point.count])).toEqual([
    [{ ...handler, "error.type": "Error" }, 1],
    [handler, 1],
  ]);
  // Messaging semantic conventions' process duration, by queue, with error.type for the runs that failed.
  const process = await sdk.histogram("messaging.process.duration");
  expect(process.map((point) => [point.attributes, point.count])).toEqual(
    expect.arrayContaining([
      [{ ...messaging, "error.type": "failed" }, 1],
      [messaging, 1],
      [{ ...messaging, "error.type": "invalid_job" }, 1],
    ]),
  );
  expect(process).toHaveLength(3);

  await worker.close();
  await queue.close();
  await sdk.shutdown();
});
