import { createWorker, enqueueTo } from "@tidings/bullmq";
import { createReceiver, type MessageEvents, sign } from "@tidings/core";
import { RedisStore } from "@tidings/redis";
import { Queue } from "bullmq";
import { Cluster } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  countRuns,
  deliver,
  deliverUntilAccepted,
  eventBody,
  type Instance,
  inParallel,
  SECRET,
  startPair,
} from "../multi-instance/cluster";
import { describeStoreContract } from "../stores/contract";
import { RedisCluster } from "../support/redis-cluster";
import { until } from "../support/wait";

// Three masters with a replica each, as `redis-cli --cluster create` makes them. The prefix carries no hash tag: each
// dedup script touches one key, so deliveries spread over every master's slots.
let cluster: RedisCluster;
let client: Cluster;
const instances: Instance[] = [];

function connect(redisOptions: { maxRetriesPerRequest: number | null } = { maxRetriesPerRequest: 2 }): Cluster {
  const connection = new Cluster(cluster.startupNodes, { redisOptions, clusterRetryStrategy: () => 100 });
  connection.on("error", () => {}); // a killed master's connection, until the cluster has elected its replica
  return connection;
}

beforeAll(async () => {
  cluster = await RedisCluster.start({ masters: 3, replicas: 1 });
  client = connect();
});
afterEach(async () => {
  await Promise.all(instances.splice(0).map((instance) => instance.close()));
});
afterAll(async () => {
  client?.disconnect();
  await cluster?.remove();
});

// The order steps touch an object's keys and the event's key in one script: the prefix's hash tag puts them in one slot.
let twinClient: Cluster;
beforeAll(() => {
  twinClient = connect();
});
afterAll(() => twinClient?.disconnect());
describeStoreContract(
  "RedisStore on a three-master Redis Cluster",
  () => new RedisStore({ client, prefix: "{contract}:" }),
  { twin: () => new RedisStore({ client: twinClient, prefix: "{contract}:" }) },
);

// A claim whose master died before its replica had it is gone; one whose done mark could not be written stays in
// flight until its lease ends, while the receiver retries the mark for half the lease: 6 s here, well past an election.
async function twoInstances() {
  const pair = await startPair(() => connect(), { leaseMs: 6000 });
  instances.push(...pair);
  return pair;
}

describe("two receiver instances sharing a Redis Cluster", () => {
  it("runs each of 600 events once when every event is delivered 3 times, concurrently, to both", async () => {
    const [a, b] = await twoInstances();
    const runs = countRuns(a, b);
    const bodies = Array.from({ length: 600 }, (_, n) => eventBody(`evt_spread_${n}`));
    const statuses = await inParallel(
      bodies.flatMap((body, n) => [0, 1, 2].map((copy) => () => deliver((n + copy) % 2 ? a.url : b.url, body))),
      24,
    );
    expect(statuses.every(({ status }) => status === 200 || status === 409)).toBe(true);
    await inParallel(
      bodies.map((body) => () => deliverUntilAccepted(a.url, body)),
      24,
    );
    expect(runs.size).toBe(600);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  });

  it("answers 503 while a master fails over to its replica, and loses or doubles no event", async () => {
    const [a, b] = await twoInstances();
    const runs = countRuns(a, b);
    const bodies = Array.from({ length: 300 }, (_, n) => eventBody(`evt_failover_${n}`));
    const statuses: number[] = [];
    const traffic = inParallel(
      bodies.flatMap((body, n) =>
        [0, 1].map((copy) => () => deliverUntilAccepted((n + copy) % 2 ? a.url : b.url, body, statuses)),
      ),
      16,
    );
    // A key whose slot the killed master serves: the events hashed there wait for the election.
    await until(() => statuses.length >= 100, "100 answers before the kill");
    await cluster.killMasterOf("event:evt_failover_299");
    await traffic;
    await cluster.waitUntilHealthy();

    expect(statuses).toContain(503);
    expect(runs.size).toBe(300);
    expect([...runs].filter(([, count]) => count !== 1)).toEqual([]);
  }, 120_000);
});

describe("the BullMQ hand-off on a Redis Cluster (a hash-tagged prefix keeps each queue in one slot)", () => {
  it("enqueues every verified delivery once, and a worker on the cluster runs each once", async () => {
    const queue = new Queue("cluster-handoff", {
      connection: connect({ maxRetriesPerRequest: null }),
      prefix: "{tidings}",
    });
    const worker = createWorker<MessageEvents>({
      queue: queue.name,
      connection: connect({ maxRetriesPerRequest: null }),
      bullmq: { prefix: "{tidings}" },
    });
    try {
      const handled = new Map<string, number>();
      const all = new Promise<void>((resolve) => {
        worker.on("message.delivered", (event) => {
          handled.set(event.id as string, (handled.get(event.id as string) ?? 0) + 1);
          if (handled.size === 100) resolve();
        });
      });
      const receiver = createReceiver({ secret: SECRET, store: new RedisStore({ client, prefix: "handoff:" }) });
      receiver.onAny(enqueueTo(queue));
      const bodies = Array.from({ length: 100 }, (_, n) => eventBody(`evt_handoff_${n}`));
      const answers = await inParallel(
        [...bodies, ...bodies].map((body) => async () => {
          const rawBody = new TextEncoder().encode(body);
          return (await receiver.receive({ rawBody, headers: { "service-signature": sign(body, SECRET) } })).status;
        }),
        16,
      );
      expect(answers.every((status) => status === 200 || status === 409)).toBe(true);
      await all;
      expect(await queue.count()).toBe(0);
      expect([...handled.values()].every((count) => count === 1)).toBe(true);
    } finally {
      await worker.close();
      await queue.close();
    }
  });
});
