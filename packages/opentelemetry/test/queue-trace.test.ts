import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SpanKind } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresServer } from "../../../test/support/postgres-server";
import { type FixtureProcess, startFixture } from "../../../test/support/queue-scenarios";
import { RedisServer } from "../../../test/support/redis-server";
import { changesOf, until } from "../../../test/support/wait";
import type { WrittenSpan } from "./fixtures/span-file";
import { delivery } from "./signed";

// The sender's own trace: the POST carries it, so every span below must be in it.
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const SENDER_SPAN = "00f067aa0ba902b7";
const TRACESTATE = "sender=t61rcWkgMzE";

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
// Whole lines only: read while the worker appends, the file may end inside a line.
const readSpans = (file: string): WrittenSpan[] =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .slice(0, -1)
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as WrittenSpan)
    : [];

/** pg-boss makes messaging spans of its own too (its `send` a child of ours): ours are told by their scope. */
const ours = (span: WrittenSpan) => span.scope === "@tidings/opentelemetry";

interface Engine {
  name: string;
  engine: string;
  start(): Promise<Record<string, string>>;
  stop(): Promise<void>;
  system: string;
  messageId: string;
}

let redis: RedisServer | undefined;
let postgres: PostgresServer | undefined;

// The package's tests run on Node 24 (its test script), which pg-boss needs; the fixtures run on this same binary.
describe.each<Engine>([
  {
    name: "BullMQ on Redis",
    engine: "bullmq",
    system: "bullmq",
    messageId: "event%3Aevt_traced",
    async start() {
      redis = await RedisServer.start();
      return { REDIS_PORT: String(redis.port) };
    },
    stop: async () => redis?.remove(),
  },
  {
    name: "pg-boss on PostgreSQL",
    engine: "pg-boss",
    system: "pg-boss",
    messageId: "",
    async start() {
      postgres = await PostgresServer.start();
      return { POSTGRES_URL: postgres.url };
    },
    stop: async () => postgres?.remove(),
  },
])("$name: one trace from the POST through the enqueue to the job run in the worker process", (engine) => {
  const dir = mkdtempSync(join(tmpdir(), "tidings-otel-queue-"));
  const receiverSpans = join(dir, "receiver.jsonl");
  const workerSpans = join(dir, "worker.jsonl");
  const processes: FixtureProcess[] = [];
  let url: string;

  beforeAll(async () => {
    const env = { ENGINE: engine.engine, ...(await engine.start()) };
    const [receiver, worker] = await Promise.all([
      startFixture(fixture("traced-receiver.ts"), { ...env, SPANS_FILE: receiverSpans }),
      startFixture(fixture("traced-worker.ts"), { ...env, SPANS_FILE: workerSpans }),
    ]);
    processes.push(receiver, worker);
    url = `http://127.0.0.1:${receiver.ready.port}/webhooks`;
  });
  afterAll(async () => {
    await Promise.all(processes.map((child) => child.stop()));
    await engine.stop();
    if (!process.env.KEEP_SPANS) rmSync(dir, { recursive: true, force: true });
  });

  it("SERVER → PRODUCER `send deliveries` → CONSUMER `process deliveries` (child and link), tracestate kept", async () => {
    const { body, signature } = delivery({ type: "message.delivered", id: "evt_traced" });
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "service-signature": signature,
        traceparent: `00-${TRACE_ID}-${SENDER_SPAN}-01`,
        tracestate: TRACESTATE,
      },
      body,
    });
    expect(response.status).toBe(200);
    const consumers = () => readSpans(workerSpans).filter((span) => ours(span) && span.kind === SpanKind.CONSUMER);
    await until(() => consumers().length > 0, "the worker's CONSUMER span", { wake: changesOf(workerSpans) });
    expect(consumers()).toHaveLength(1);

    const received = readSpans(receiverSpans);
    const server = received.find((span) => span.kind === SpanKind.SERVER);
    const delivered = received.find((span) => span.name === "tidings.delivery");
    const producer = received.find((span) => ours(span) && span.kind === SpanKind.PRODUCER);
    const worked = readSpans(workerSpans);
    const consumer = worked.find((span) => ours(span) && span.kind === SpanKind.CONSUMER);
    const handler = worked.find((span) => span.name === "tidings.handler");

    for (const span of [server, delivered, producer, consumer, handler]) {
      expect(span?.traceId).toBe(TRACE_ID);
    }
    expect(server?.parentSpanId).toBe(SENDER_SPAN);
    expect(delivered?.parentSpanId).toBe(server?.spanId);
    expect(producer?.parentSpanId).toBe(server?.spanId);
    expect(consumer?.parentSpanId).toBe(producer?.spanId);
    expect(consumer?.links).toEqual([producer?.spanId]);
    expect(handler?.parentSpanId).toBe(consumer?.spanId);
    expect([producer?.tracestate, consumer?.tracestate]).toEqual([TRACESTATE, TRACESTATE]);
    // Whatever the engine's client traces of the write is a child of the enqueue's span.
    for (const span of received.filter((span) => !ours(span) && span.kind !== SpanKind.SERVER)) {
      expect([span.name, span.parentSpanId]).toEqual([span.name, producer?.spanId]);
    }

    const messaging = { "messaging.system": engine.system, "messaging.destination.name": "deliveries" };
    const messageId = { "messaging.message.id": engine.messageId || expect.stringMatching(/^[0-9a-f-]{36}$/) };
    expect(producer?.name).toBe("send deliveries");
    expect(producer?.attributes).toEqual({
      ...messaging,
      ...messageId,
      "messaging.operation.type": "send",
      "messaging.operation.name": "send",
      "tidings.event.type": "message.delivered",
      "tidings.delivery_key": "event:evt_traced",
    });
    expect(consumer?.name).toBe("process deliveries");
    expect(consumer?.attributes).toMatchObject({
      ...messaging,
      ...messageId,
      "messaging.operation.type": "process",
      "messaging.operation.name": "process",
      "tidings.outcome": "completed",
      "tidings.job.attempt": 1,
    });
    expect(consumer?.attributes["messaging.message.id"]).toBe(producer?.attributes["messaging.message.id"]);
    expect(handler?.attributes["tidings.handler.name"]).toBe("recordStatus");
  });
});
