import { createReceiver, type DeliveryContext, sign } from "@tidings/core";
import type { SharedEnqueueOptions } from "@tidings/core/dispatch";
import { afterEach, describe, expect, it } from "vitest";
import { eventBody, eventIds, QUEUE_SECRET } from "./queue-scenarios";
import { until } from "./wait";

export type BatchSettings = Pick<SharedEnqueueOptions, "batch" | "timeoutMs">;

/** One fresh queue of an engine, as the batching suite drives it. */
export interface BatchQueue {
  /** `enqueueTo(...)` on this queue. */
  enqueuer(settings?: BatchSettings): (event: object, context: DeliveryContext) => Promise<void>;
  jobIdFor(deliveryKey: string): string;
  /** Whether the job is stored, asked on a connection of its own (not the one enqueueTo writes on). */
  stored(jobId: string): Promise<boolean>;
  jobCount(): Promise<number>;
  /** How many jobs each engine write so far held, as the engine saw them. */
  writes(): Promise<number[]>;
  close(): Promise<void>;
}

export interface BatchEngine {
  name: string;
  open(): Promise<BatchQueue>;
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
}

const quiet = { error() {} };

function delivery(id: string) {
  const body = eventBody(id);
  return { rawBody: new TextEncoder().encode(body), headers: { "service-signature": sign(body, QUEUE_SECRET) } };
}

/** Group commit on a real engine: deliveries that arrive together share one engine write. */
export function describeBatching(engine: BatchEngine): void {
  const closing: BatchQueue[] = [];
  afterEach(async () => {
    for (const queue of closing.splice(0)) await queue.close();
  });
  const open = async () => {
    const queue = await engine.open();
    closing.push(queue);
    const receiver = (settings?: BatchSettings) =>
      createReceiver({ secret: QUEUE_SECRET, logger: quiet }).onAny(queue.enqueuer(settings));
    return { queue, receiver };
  };

  describe(`enqueueTo batches concurrent deliveries (${engine.name})`, () => {
    it("20 concurrent deliveries: fewer engine writes than deliveries, each answered 200 only once its job is stored", async () => {
      const { queue, receiver } = await open();
      const receiving = receiver();
      const answers = await Promise.all(
        eventIds("evt_together", 20).map(async (id) => {
          const { status } = await receiving.receive(delivery(id));
          return [status, await queue.stored(queue.jobIdFor(`event:${id}`))];
        }),
      );
      expect(answers).toEqual(Array.from({ length: 20 }, () => [200, true]));
      const writes = await queue.writes();
      expect(writes.reduce((sum, jobs) => sum + jobs, 0)).toBe(20);
      expect(writes.length).toBeLessThan(20);
    });

    it("batch.maxJobs caps a write: 10 deliveries with maxJobs 3 go in writes of at most 3, each stored once", async () => {
      const { queue, receiver } = await open();
      const receiving = receiver({ batch: { maxJobs: 3 } });
      const statuses = await Promise.all(
        eventIds("evt_capped", 10).map(async (id) => (await receiving.receive(delivery(id))).status),
      );
      expect(statuses).toEqual(Array(10).fill(200));
      const writes = await queue.writes();
      expect(writes.reduce((sum, jobs) => sum + jobs, 0)).toBe(10);
      expect(Math.max(...writes)).toBeLessThanOrEqual(3);
      expect(await queue.jobCount()).toBe(10);
    });

    it("batch: false writes each delivery on its own", async () => {
      const { queue, receiver } = await open();
      const receiving = receiver({ batch: false });
      await Promise.all(eventIds("evt_alone", 5).map((id) => receiving.receive(delivery(id))));
      expect(await queue.writes()).toEqual([1, 1, 1, 1, 1]);
    });

    it("a lone delivery does not wait for others: with maxWaitMs far above timeoutMs it is still answered 200", async () => {
      const { queue, receiver } = await open();
      const receiving = receiver({ batch: { maxWaitMs: 3_600_000 }, timeoutMs: 2000 });
      for (const id of ["evt_lone_1", "evt_lone_2"]) {
        expect((await receiving.receive(delivery(id))).status).toBe(200);
        expect(await queue.stored(queue.jobIdFor(`event:${id}`))).toBe(true);
      }
    });

    it("the same event twice in one batch (two receivers, one enqueuer): one job, both answered 200", async () => {
      const { queue } = await open();
      const enqueue = queue.enqueuer();
      const [first, second] = [1, 2].map(() => createReceiver({ secret: QUEUE_SECRET, logger: quiet }).onAny(enqueue));
      const statuses = await Promise.all(
        [first, second, first].map(async (receiving, index) => {
          const id = index === 2 ? "evt_twin_other" : "evt_twin";
          return (await receiving?.receive(delivery(id)))?.status;
        }),
      );
      expect(statuses).toEqual([200, 200, 200]);
      expect(await queue.jobCount()).toBe(2);
    });

    it("a retried batch never doubles a job: stored ids are left as they are, new ones added", async () => {
      const { queue, receiver } = await open();
      const ids = eventIds("evt_again", 10);
      await Promise.all(ids.slice(0, 5).map((id) => receiver().receive(delivery(id))));
      // A receiver that forgot them (its own store) sends all ten together, as a sender's retries would arrive.
      const forgetful = receiver();
      const statuses = await Promise.all(ids.map(async (id) => (await forgetful.receive(delivery(id))).status));
      expect(statuses).toEqual(Array(10).fill(200));
      expect(await queue.jobCount()).toBe(10);
      const writes = await queue.writes();
      expect(writes.reduce((sum, jobs) => sum + jobs, 0)).toBeGreaterThanOrEqual(10);
    });

    it("server down: every request of the batch is answered 500, none 200; the retries store each job once", async () => {
      const { queue, receiver } = await open();
      const receiving = receiver({ timeoutMs: 1000 });
      expect((await receiving.receive(delivery("evt_warm"))).status).toBe(200); // queue created, client connected
      const errors: unknown[] = [];
      receiving.onError((error) => errors.push(error));
      const ids = eventIds("evt_outage", 8);
      await engine.stopServer();
      try {
        const during = await Promise.all(ids.map(async (id) => (await receiving.receive(delivery(id))).status));
        expect(during).toEqual(Array(8).fill(500));
        expect(errors).toHaveLength(8);
      } finally {
        await engine.startServer();
      }
      // Each claim was released: the senders' retries are processed, and no job is stored twice.
      await until(async () => {
        const after = await Promise.all(ids.map(async (id) => (await receiving.receive(delivery(id))).status));
        return after.every((status) => status === 200);
      }, "every retry answered 200");
      expect(await queue.jobCount()).toBe(9);
    });
  });
}
