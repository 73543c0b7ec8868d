import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RedisServer } from "../support/redis-server";
import { until } from "../support/wait";
import {
  connectTo,
  countRuns,
  deliver,
  deliverUntilAccepted,
  eventBody,
  type Instance,
  type InstanceOptions,
  inParallel,
  PREFIX,
  startPair,
} from "./cluster";

let redis: RedisServer;
const instances: Instance[] = [];

beforeAll(async () => {
  redis = await RedisServer.start();
});
afterEach(async () => {
  await Promise.all(instances.splice(0).map((instance) => instance.close()));
});
afterAll(async () => {
  await redis.stop();
});

async function twoInstances(options: InstanceOptions = {}) {
  const pair = await startPair(connectTo(redis), options);
  instances.push(...pair);
  return pair;
}

describe("several receiver instances sharing one Redis", () => {
  it("runs each of 1,000 events once when every event is delivered 3 times, concurrently, to both instances", async () => {
    const [a, b] = await twoInstances();
    const runs = countRuns(a, b);
    const tag = Math.random().toString(36).slice(2);
    const tasks = Array.from({ length: 1000 }, (_, n) => eventBody(`evt_${tag}_${n}`)).flatMap((body, n) =>
      [0, 1, 2].map((copy) => () => deliverUntilAccepted((n + copy) % 2 === 0 ? a.url : b.url, body)),
    );
    tasks.sort(() => Math.random() - 0.5);
    const answers = (await inParallel(tasks, 64)).map((body) => JSON.parse(body));
    expect(runs.size).toBe(1000);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(answers.filter((answer) => answer.duplicate !== true)).toHaveLength(1000);
    expect(answers.filter((answer) => answer.duplicate === true)).toHaveLength(2000);
  }, 120_000);

  it("runs a handler that failed on the first delivery again on the retry, then never again", async () => {
    const [a, b] = await twoInstances();
    let attempts = 0;
    for (const { receiver } of [a, b]) {
      receiver.on("message.delivered", () => {
        attempts++;
        if (attempts === 1) throw new Error("transient failure");
      });
    }
    const body = eventBody(`evt_fail_${Math.random()}`);
    expect((await deliver(a.url, body)).status).toBe(500);
    expect(JSON.parse((await deliver(b.url, body)).body)).toEqual({ received: true });
    expect(JSON.parse((await deliver(a.url, body)).body)).toEqual({ received: true, duplicate: true });
    expect(attempts).toBe(2);
  });

  it("lets another instance take over an event whose instance lost Redis while its handler ran; back, it cannot corrupt it", async () => {
    const warned: { code?: string }[] = [];
    const logger = { error() {}, warn: (line: unknown) => warned.push(line as { code?: string }) };
    const [a, b] = await twoInstances({ leaseMs: 300, logger });
    let unblock: () => void = () => {};
    let started: () => void = () => {};
    const hanging = new Promise<void>((resolve) => {
      started = resolve;
    });
    const runsOn: string[] = [];
    a.receiver.on("message.delivered", async () => {
      runsOn.push("a");
      started();
      await new Promise<void>((resolve) => {
        unblock = resolve;
      });
    });
    b.receiver.on("message.delivered", () => {
      runsOn.push("b");
    });
    const id = `evt_hang_${Math.random().toString(36).slice(2)}`;
    const body = eventBody(id);
    const first = deliver(a.url, body);
    await hanging;
    // While a's handler runs, a renews its claim: b is refused.
    expect((await deliver(b.url, body)).status).toBe(409);
    // a loses its connection: its renewals fail, and Redis ends the 300 ms lease on its own clock. b answers 409 until
    // then, and takes the event over after.
    a.client.disconnect();
    const statuses: number[] = [];
    expect(JSON.parse(await deliverUntilAccepted(b.url, body, statuses))).toEqual({ received: true });
    expect(statuses.filter((status) => status !== 409)).toEqual([200]);
    const doneByB = await b.client.get(`${PREFIX}event:${id}`);
    expect(doneByB).toMatch(/^done:/);
    // The hanging handler's sender was answered when it passed handlerTimeoutMs (half the lease by default).
    expect(JSON.parse((await first).body).error.code).toBe("handler_timeout");
    // a is back and its handler ends: its claim is gone, so it marks nothing.
    await (a.client as Redis).connect();
    unblock();
    await until(() => warned.some((line) => line.code === "lease_lost"), "instance a to find its claim gone");
    expect(await b.client.get(`${PREFIX}event:${id}`)).toBe(doneByB);
    expect(JSON.parse((await deliver(a.url, body)).body)).toEqual({ received: true, duplicate: true });
    expect(runsOn).toEqual(["a", "b"]);
  });

  it("answers 503 while Redis is down and loses or doubles no event across the outage", async () => {
    const [a, b] = await twoInstances();
    const runs = countRuns(a, b);
    const tag = Math.random().toString(36).slice(2);
    const before = Array.from({ length: 100 }, (_, n) => eventBody(`evt_${tag}_before_${n}`));
    const during = Array.from({ length: 100 }, (_, n) => eventBody(`evt_${tag}_during_${n}`));
    await inParallel(
      before.map((body, n) => () => deliverUntilAccepted(n % 2 ? a.url : b.url, body)),
      16,
    );
    await redis.stop();
    const whileDown = await inParallel(
      during.map((body, n) => () => deliver(n % 2 ? a.url : b.url, body)),
      16,
    );
    expect(new Set(whileDown.map((response) => response.status))).toEqual(new Set([503]));
    expect(runs.size).toBe(100);
    await redis.start();
    const statuses: number[] = [];
    await inParallel(
      [...before, ...during].map((body, n) => () => deliverUntilAccepted(n % 2 ? b.url : a.url, body, statuses)),
      16,
    );
    expect(runs.size).toBe(200);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  });
});
