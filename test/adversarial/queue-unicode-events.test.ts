import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { jobIdFor as bullmqJobId } from "@tidings/bullmq";
import { sign } from "@tidings/core";
import { jobIdFor as pgBossJobId } from "@tidings/pg-boss";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureNodeBinaries, nodeBinary } from "../runtimes/lib/node-binaries.mjs";
import { PostgresServer } from "../support/postgres-server";
import { QUEUE_SECRET, readHandled, startFixture } from "../support/queue-scenarios";
import { RedisServer } from "../support/redis-server";
import { changesOf, until } from "../support/wait";

// Events whose JSON is valid and correctly signed, so the Receiver accepts them, but whose strings hold what some
// stores refuse or mangle: PostgreSQL's jsonb refuses \u0000 and lone surrogates; UTF-8 turns every lone surrogate
// into U+FFFD, so two ids that differ only there would become one. Each is JSON text exactly as the sender sends it.
const BODIES = [
  String.raw`{"id":"evt_nul_in_data","type":"message.delivered","data":{"note":"a\u0000b"}}`,
  String.raw`{"id":"evt_lone_high","type":"message.delivered","data":{"note":"\ud83d"}}`,
  String.raw`{"id":"evt_lone_low_key","type":"message.delivered","data":{"\udc00":1,"\u0000":"\ud83d\ude00"}}`,
  String.raw`{"id":"evt_\ud800","type":"message.delivered","data":{}}`,
  String.raw`{"id":"evt_\ud801","type":"message.delivered","data":{}}`,
  String.raw`{"id":"evt_\u0000","type":"message.delivered","data":{}}`,
  String.raw`{"id":"evt_type","type":"message.\udfff\u0000","data":{}}`,
  String.raw`{"id":"evt_plain","type":"message.delivered","data":{"note":"caf\u00e9 ☕"}}`,
];

interface EngineSetup {
  name: string;
  start(): Promise<{ env: Record<string, string>; node: string }>;
  stop(): Promise<void>;
  fixtures: string;
}

let redis: RedisServer | undefined;
let postgres: PostgresServer | undefined;
const ENGINES: EngineSetup[] = [
  {
    name: "BullMQ on Redis",
    fixtures: "../../packages/bullmq/test/fixtures/",
    async start() {
      redis = await RedisServer.start();
      return { env: { REDIS_PORT: String(redis.port) }, node: process.execPath };
    },
    stop: async () => redis?.remove(),
  },
  {
    name: "pg-boss on PostgreSQL (Node 24)",
    fixtures: "../../packages/pg-boss/test/fixtures/",
    async start() {
      ensureNodeBinaries();
      postgres = await PostgresServer.start();
      return { env: { POSTGRES_URL: postgres.url }, node: nodeBinary("node24") };
    },
    stop: async () => postgres?.remove(),
  },
];

describe.each(ENGINES)("$name: every event the Receiver accepts reaches the worker, unchanged", (engine) => {
  const dir = mkdtempSync(join(tmpdir(), "tidings-unicode-"));
  const stops: (() => Promise<void>)[] = [];
  let url: string;
  const handledLog = join(dir, "handled.jsonl");

  beforeAll(async () => {
    const { env, node } = await engine.start();
    const fixture = (name: string) => fileURLToPath(new URL(`${engine.fixtures}${name}`, import.meta.url));
    const settings = { ...env, QUEUE: "unicode", HANDLED_LOG: handledLog };
    const [receiver, worker] = await Promise.all([
      startFixture(fixture("receiver.ts"), settings, node),
      startFixture(fixture("worker.ts"), settings, node),
    ]);
    stops.push(
      () => receiver.stop(),
      () => worker.stop(),
    );
    url = `http://127.0.0.1:${receiver.ready.port}/`;
  });
  afterAll(async () => {
    await Promise.all(stops.map((stop) => stop()));
    await engine.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("accepted at the first try (200), and handled once each with the same event, type and delivery key", async () => {
    for (const body of BODIES) {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "service-signature": sign(body, QUEUE_SECRET) },
        body,
      });
      expect([response.status, await response.text()], body).toEqual([200, expect.any(String)]);
    }
    await until(() => readHandled(handledLog).length === BODIES.length, "every event handled", {
      wake: changesOf(handledLog),
    });

    const handled = readHandled(handledLog);
    for (const body of BODIES) {
      const event = JSON.parse(body) as { id: string; type: string };
      const runs = handled.filter((record) => record.deliveryKey === `event:${event.id}`);
      expect(runs, body).toHaveLength(1);
      expect(runs[0]?.event, body).toEqual(event);
      expect(runs[0]?.type, body).toBe(event.type);
    }
  }, 60_000);
});

/** Any UTF-16 string, lone surrogates and the characters job ids escape coming up often. */
const anyKey = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0xd800, max: 0xdfff }),
      fc.constantFrom(0x00, 0x25, 0x3a, 0x55, 0x75, 0x41),
      fc.integer({ min: 0, max: 0xffff }),
    ),
    { maxLength: 12 },
  )
  .map((units) => `event:${String.fromCharCode(...units)}`);

/** The key with one code unit replaced by another: the closest distinct key there is. */
const keyPair = anyKey
  .filter((key) => key.length > "event:".length)
  .chain((key) =>
    fc
      .tuple(fc.integer({ min: "event:".length, max: key.length - 1 }), fc.integer({ min: 0, max: 0xffff }))
      .filter(([at, unit]) => key.charCodeAt(at) !== unit)
      .map(([at, unit]) => [key, key.slice(0, at) + String.fromCharCode(unit) + key.slice(at + 1)] as const),
  );

/** What the engines store: the id as UTF-8. */
const stored = (id: string) => Buffer.from(id, "utf8").toString("hex");

describe.each([
  ["BullMQ", bullmqJobId],
  ["pg-boss", pgBossJobId],
])("%s job ids", (_name, jobIdFor) => {
  it("two different delivery keys never share a job id, as stored (UTF-8), lone surrogates included", () => {
    expect(stored(jobIdFor("event:evt_\uD800"))).not.toBe(stored(jobIdFor("event:evt_\uD801")));
    fc.assert(
      fc.property(keyPair, ([a, b]) => stored(jobIdFor(a)) !== stored(jobIdFor(b))),
      { numRuns: 20_000 },
    );
  });

  it("every id survives UTF-8 as it is, so the engine keeps the id it was given", () => {
    fc.assert(
      fc.property(anyKey, (key) => {
        const id = jobIdFor(key);
        return Buffer.from(id, "utf8").toString("utf8") === id;
      }),
      { numRuns: 20_000 },
    );
  });
});

it("BullMQ ids decode back to their key (so no two keys share one), and are unchanged for well-formed keys", () => {
  const decode = (id: string) =>
    id.replace(/%(25|3A|u[0-9A-F]{4})/g, (_match, code: string) =>
      code === "25" ? "%" : code === "3A" ? ":" : String.fromCharCode(Number.parseInt(code.slice(1), 16)),
    );
  fc.assert(
    fc.property(anyKey, (key) => decode(bullmqJobId(key)) === key),
    { numRuns: 20_000 },
  );
  expect(bullmqJobId("event:evt_1")).toBe("event%3Aevt_1");
  expect(bullmqJobId("endpoint:acct%2F1:event:caf\u00e9")).toBe("endpoint%3Aacct%252F1%3Aevent%3Acaf\u00e9");
});

it("pg-boss ids of well-formed keys are the version 5 UUIDs they always were", () => {
  const namespace = Buffer.from("3b0f9a6e5c2d4e1f8a7b6c5d4e3f2a1b", "hex");
  const uuidV5 = (key: string) => {
    const bytes = createHash("sha1").update(namespace).update(key, "utf8").digest().subarray(0, 16);
    bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
    bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
    const hex = bytes.toString("hex");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), (text) => pgBossJobId(`event:${text}`) === uuidV5(`event:${text}`)),
    { numRuns: 5_000 },
  );
});
