import { describe, expect, expectTypeOf, it } from "vitest";
import { createReceiver, type DeliveryContext, type MessageEvents, sign } from "../src/entries";
import { Dispatcher, QueueWorker, type WorkerContext, type WorkerErrorInfo } from "../src/entries/dispatch";

const context = (type: string) => ({ type, deliveryKey: `event:${type}`, timestamp: 1, secretIndex: 0 });

describe("Dispatcher", () => {
  it("runs the type's handlers then the catch-all ones, all of them, and returns what they threw", async () => {
    const dispatcher = new Dispatcher<MessageEvents, ReturnType<typeof context>>();
    const ran: string[] = [];
    dispatcher.on("message.sent", () => {
      ran.push("sent");
      throw new Error("sync");
    });
    dispatcher.on(["message.sent", "message.failed"], async () => {
      ran.push("sent or failed");
      throw new Error("async");
    });
    dispatcher.onAny(() => ran.push("any"));
    const failures = await dispatcher.dispatch({}, context("message.sent"));
    expect(ran).toEqual(["sent", "sent or failed", "any"]);
    expect(failures.map((failure) => (failure as Error).message)).toEqual(["sync", "async"]);
  });

  it("gives a family's handlers (GitHub's `issues`) every action of it, and an action's handlers that action alone", () => {
    type GitHubLike = { issues: object; "issues.opened": object; "issues.closed": object; push: object };
    const dispatcher = new Dispatcher<GitHubLike, ReturnType<typeof context>>();
    const ran: string[] = [];
    dispatcher.on("issues", () => ran.push("issues"));
    dispatcher.on("issues.opened", () => ran.push("opened"));
    dispatcher.on("push", () => ran.push("push"));
    for (const type of ["issues.opened", "issues.closed", "push", "issue_comment.created"]) {
      dispatcher.dispatch({}, context(type));
    }
    expect(ran).toEqual(["issues", "opened", "issues", "push"]);
  });

  it("answers synchronously when every handler is synchronous, whatever they return", () => {
    const dispatcher = new Dispatcher<MessageEvents, ReturnType<typeof context>>();
    dispatcher.on("message.queued", () => 42);
    dispatcher.onAny(() => "ignored");
    expect(dispatcher.dispatch({}, context("message.queued"))).toEqual([]);
    expect(dispatcher.dispatch({}, context("no.handler"))).toEqual([]);
  });
});

describe("one handler for a Receiver and a worker", () => {
  class TestWorker extends QueueWorker {
    runJob(data: unknown) {
      return this.run(data, { id: "job_1", attempt: 2 });
    }
    async close() {}
  }

  it("the same function registers on both, typed by the event, and the worker fails a job its handler failed", async () => {
    const seen: string[] = [];
    const handler = (event: MessageEvents["message.sent"], ctx: { deliveryKey: string }) => {
      seen.push(`${event.data.id} ${ctx.deliveryKey}`);
      if (event.data.id === "msg_bad") throw new Error("bad message");
      return true; // handlers may return anything
    };
    const body = JSON.stringify({
      id: "evt_1",
      type: "message.sent",
      data: { id: "msg_1", status: "sent", channel: "sms" },
    });
    const receiver = createReceiver({ secret: "s" }).on("message.sent", handler);
    const result = await receiver.receive({
      rawBody: new TextEncoder().encode(body),
      headers: { "service-signature": sign(body, "s") },
    });
    expect(result.status).toBe(200);

    const errors: WorkerErrorInfo[] = [];
    const worker = new TestWorker({ logger: { error() {} } })
      .on("message.sent", handler)
      .onError((_e, info) => errors.push(info));
    const job = (id: string) => ({
      event: { id: "evt_2", type: "message.sent", data: { id, status: "sent", channel: "sms" } },
      ...context("message.sent"),
      verifiedBodySha256: "00",
    });
    await worker.runJob(job("msg_2"));
    await expect(worker.runJob(job("msg_bad"))).rejects.toThrow("bad message");
    await expect(worker.runJob({ nothing: true })).rejects.toThrow(
      "Job job_1 does not hold a delivery enqueued by enqueueTo()",
    );
    expect(seen).toEqual(["msg_1 event:evt_1", "msg_2 event:message.sent", "msg_bad event:message.sent"]);
    expect(errors.map((info) => [info.code, info.jobId, info.attempt])).toEqual([
      ["handler_failed", "job_1", 2],
      ["invalid_job", "job_1", 2],
    ]);
    expectTypeOf<WorkerContext>().toMatchTypeOf<{ deliveryKey: string; attempt: number }>();
    expectTypeOf<DeliveryContext>().toMatchTypeOf<{ deliveryKey: string }>();
  });
});
