import { describe, expect, it } from "vitest";
import { createReceiver, type DeliveryOutcome, type DeliveryStore } from "../src/entries";
import { type JobOutcome, QueueWorker, toQueuedDelivery } from "../src/entries/dispatch";
import { event, quietLogger, SECRET, signed } from "./receiver-fixtures";

const target = { path: "/webhooks", route: "/webhooks", params: {} };

function listening(options: { store?: DeliveryStore } = {}) {
  const outcomes: DeliveryOutcome[] = [];
  const receiver = createReceiver({ secret: SECRET, logger: quietLogger, ...options }).onOutcome((outcome) => {
    outcomes.push(outcome);
  });
  return { receiver, outcomes };
}

const downStore: DeliveryStore = {
  claim: () => Promise.reject(new Error("redis down")),
  complete: () => true,
  release: () => true,
};

describe("onOutcome", () => {
  it("hears every delivery once answered: code, status, method, target, delivery, timings", async () => {
    const { receiver, outcomes } = listening();
    const before = Date.now();
    await receiver.handle({
      method: "POST",
      ...signed(event()),
      readBody: () => signed(event()).rawBody,
      target: () => target,
    });
    await receiver.receive({ ...signed(event()), target });
    await receiver.receive(signed(event({ id: "evt_2" }), { secret: "whsec_wrong" }));
    expect(outcomes.map(({ code, status }) => [code, status])).toEqual([
      ["accepted", 200],
      ["duplicate", 200],
      ["signature_mismatch", 400],
    ]);
    const [accepted, duplicate, refused] = outcomes as [DeliveryOutcome, DeliveryOutcome, DeliveryOutcome];
    expect(accepted).toMatchObject({ method: "POST", target, endpoint: undefined });
    expect(accepted.delivery).toMatchObject({ type: "message.delivered", deliveryKey: "event:evt_1", secretIndex: 0 });
    expect(duplicate.delivery?.deliveryKey).toBe("event:evt_1");
    expect(refused.delivery).toBeUndefined();
    for (const outcome of outcomes) {
      expect(outcome.startedAt).toBeGreaterThanOrEqual(before - 1);
      expect(outcome.startedAt).toBeLessThanOrEqual(Date.now() + 1);
      expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it("records each handler's run, with what a failing one threw, and the 500 that followed", async () => {
    const { receiver, outcomes } = listening();
    receiver.on("message.delivered", function recordStatus() {});
    receiver.onAny(async function notifyTeam() {
      throw new Error("chat down");
    });
    await receiver.receive(signed(event()));
    const [outcome] = outcomes;
    expect([outcome?.code, outcome?.status]).toEqual(["handler_failed", 500]);
    expect(outcome?.handlers).toEqual([
      expect.objectContaining({ name: "recordStatus", on: "message.delivered", failed: false }),
      expect.objectContaining({ name: "notifyTeam", on: "*", failed: true, error: new Error("chat down") }),
    ]);
    for (const run of outcome?.handlers ?? []) expect(run.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("hears a store outage as store_unavailable, 503", async () => {
    const { receiver, outcomes } = listening({ store: downStore });
    await receiver.receive(signed(event()));
    expect(outcomes.map(({ code, status }) => [code, status])).toEqual([["store_unavailable", 503]]);
  });

  it("carries the endpoint the resolver named, and a listener that throws changes no answer", async () => {
    const logged: unknown[] = [];
    const receiver = createReceiver({
      secret: () => ({ secret: SECRET, endpoint: "acct_1" }),
      logger: { error: (line) => logged.push(line) },
    });
    const endpoints: unknown[] = [];
    receiver.onOutcome(() => {
      throw new Error("exporter broke");
    });
    receiver.onOutcome((outcome) => {
      endpoints.push(outcome.endpoint);
    });
    expect((await receiver.receive(signed(event()))).status).toBe(200);
    expect(endpoints).toEqual(["acct_1"]);
    expect(logged).toEqual([expect.objectContaining({ code: "listener_failed" })]);
  });
});

describe("a queue worker's onOutcome", () => {
  class TestWorker extends QueueWorker {
    runJob(data: unknown, attempt = 1) {
      return this.run(data, { id: "job_1", attempt });
    }
    async close() {}
  }

  it("hears completed, failed and invalid runs, with the delivery's endpoint and each handler's run", async () => {
    const outcomes: JobOutcome[] = [];
    let fail = true;
    const worker = new TestWorker({ logger: quietLogger });
    worker.onAny(function maybeFail() {
      if (fail) throw new Error("not yet");
    });
    worker.onOutcome((outcome) => {
      outcomes.push(outcome);
    });
    const context = {
      type: "message.delivered",
      deliveryKey: "endpoint:acct_1:event:evt_1",
      timestamp: 1,
      secretIndex: 0,
      endpoint: "acct_1",
      verifiedBody: new Uint8Array([123, 125]),
      headers: {},
    };
    const job = toQueuedDelivery(event(), context, false);
    await expect(worker.runJob(job)).rejects.toThrow("not yet");
    fail = false;
    await worker.runJob(job, 2);
    await expect(worker.runJob({ nope: true })).rejects.toThrow(TypeError);
    expect(outcomes.map(({ code, attempt }) => [code, attempt])).toEqual([
      ["failed", 1],
      ["completed", 2],
      ["invalid_job", 1],
    ]);
    expect(outcomes[0]?.delivery).toMatchObject({ endpoint: "acct_1", type: "message.delivered" });
    expect(outcomes[0]?.handlers).toEqual([expect.objectContaining({ name: "maybeFail", failed: true })]);
    expect(outcomes[2]?.delivery).toBeUndefined();
  });
});
