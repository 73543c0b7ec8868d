import type { QueueAdmin, QueueAdminError } from "@tidings/core/dispatch";
import { describe, expect, it } from "vitest";

/** One engine's `openQueueAdmin`, as the admin suite drives it on a real server. */
export interface AdminEngine {
  name: string;
  /** `openQueueAdmin({ <url option>: url, queue })`. */
  open(url: string, queue: string): Promise<QueueAdmin>;
  /** The running server's URL, with a user name and password the engine accepts. */
  url(): string;
  /** A URL on which nothing listens. */
  deadUrl(): Promise<string>;
  /**
   * A fresh queue holding, as the app's enqueueTo and workers leave it: two failed jobs (delivery keys
   * `event:evt_dead1` and `event:evt_dead2`, error "downstream refused"), one delayed, one waiting.
   */
  seed(queue: string): Promise<void>;
  /** The job ids of these delivery keys. */
  jobIdFor(deliveryKey: string): string;
  /** Every key or row the engine holds, to show that opening an unknown queue wrote nothing. */
  footprint(): Promise<unknown>;
  /** The counts the engine reports for the seeded queue: the states it has and no other. */
  seededCounts: Record<string, number>;
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
}

async function rejection(promise: Promise<unknown>): Promise<QueueAdminError> {
  try {
    await promise;
  } catch (error) {
    return error as QueueAdminError;
  }
  throw new Error("expected a rejection");
}

let queues = 0;

/** What `openQueueAdmin` of every engine package does: the one interface `tidings queue` uses. */
export function describeQueueAdmin(engine: AdminEngine): void {
  const fresh = async () => {
    const queue = `admin${++queues}`;
    await engine.seed(queue);
    return queue;
  };

  describe(`openQueueAdmin (${engine.name})`, () => {
    it("counts every state apart, lists failed jobs, finds jobs by id or delivery key", async () => {
      const queue = await fresh();
      const admin = await engine.open(engine.url(), queue);
      try {
        expect([admin.engine, admin.queue]).toEqual([engine.name, queue]);
        expect(await admin.stats()).toEqual(engine.seededCounts);
        const failed = await admin.failed();
        expect(
          failed
            .map(({ id, deliveryKey, error }) => ({ id, deliveryKey, error }))
            .sort((a, b) => a.deliveryKey.localeCompare(b.deliveryKey)),
        ).toEqual([
          { id: engine.jobIdFor("event:evt_dead1"), deliveryKey: "event:evt_dead1", error: "downstream refused" },
          { id: engine.jobIdFor("event:evt_dead2"), deliveryKey: "event:evt_dead2", error: "downstream refused" },
        ]);
        expect(await admin.failed(1)).toHaveLength(1);
        const id = engine.jobIdFor("event:evt_dead1");
        expect(await admin.find("event:evt_dead1")).toEqual({ jobId: id, state: "failed" });
        expect(await admin.find(id)).toEqual({ jobId: id, state: "failed" });
        expect(await admin.find("event:evt_nope")).toBeUndefined();
      } finally {
        await admin.close();
      }
    });

    it("retry moves failed jobs back: these ids, then all; a job that has not failed is not moved", async () => {
      const queue = await fresh();
      const admin = await engine.open(engine.url(), queue);
      try {
        const [first, second] = [engine.jobIdFor("event:evt_dead1"), engine.jobIdFor("event:evt_dead2")];
        expect(await admin.retry([first, engine.jobIdFor("event:evt_nope")])).toBe(1);
        expect((await admin.find(first))?.state).not.toBe("failed");
        expect(await admin.retry("all")).toBe(1);
        expect((await admin.find(second))?.state).not.toBe("failed");
        expect((await admin.stats()).failed).toBe(0);
      } finally {
        await admin.close();
      }
    });

    it("a queue the engine never saw: unknown_queue naming the queues it has, and nothing written", async () => {
      const queue = await fresh();
      const before = await engine.footprint();
      const error = await rejection(engine.open(engine.url(), `${queue}-misspelled`));
      expect([error.name, error.code]).toEqual(["QueueAdminError", "unknown_queue"]);
      expect(error.details.queues).toContain(queue);
      expect(error.message).toMatch(
        new RegExp(`^no queue named ${queue}-misspelled in this ${engine.name} \\(its queues: `),
      );
      expect(await engine.footprint()).toEqual(before);
    });

    it("nothing listening: one unreachable error at once, without the URL's password", async () => {
      const url = await engine.deadUrl();
      const error = await rejection(engine.open(url, "deliveries"));
      expect([error.name, error.code]).toEqual(["QueueAdminError", "unreachable"]);
      expect(error.message).toMatch(/^cannot reach \w+ at .*: ECONNREFUSED$/);
      expect(error.message).not.toContain("s3cret");
    });

    it("the server stopping while open: operations reject with connection_lost", async () => {
      const queue = await fresh();
      const admin = await engine.open(engine.url(), queue);
      await engine.stopServer();
      try {
        const error = await rejection(admin.stats());
        expect([error.name, error.code]).toEqual(["QueueAdminError", "connection_lost"]);
        expect(error.message).toMatch(/^lost the connection to \w+ at /);
      } finally {
        await admin.close();
        await engine.startServer();
      }
    });
  });
}
