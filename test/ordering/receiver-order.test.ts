import { SpanStatusCode } from "@opentelemetry/api";
import {
  createReceiver,
  type DeliveryOutcome,
  type DeliveryStore,
  MemoryStore,
  type MessageEvents,
  messageStatusOrder,
  STATUS_BY_CODE,
  sign,
} from "@tidings/core";
import { instrument } from "@tidings/opentelemetry";
import { describe, expect, it } from "vitest";
import { RecordingSdk } from "../../packages/opentelemetry/test/sdk";
import { afterFakeTime, until } from "../support/wait";

const SECRET = "whsec_order";
const quiet = { error() {}, warn() {} };
const types = {
  1: "message.queued",
  2: "message.sent",
  3: "message.delivered",
} as const satisfies Record<number, keyof MessageEvents>;

function delivery(message: string, position: 1 | 2 | 3, id = `${message}-${position}`) {
  const type = types[position];
  const payload = { id, type, data: { id: message, status: type.slice("message.".length), channel: "sms" } };
  const rawBody = new TextEncoder().encode(JSON.stringify(payload));
  return { rawBody, headers: { "service-signature": sign(rawBody, SECRET) } };
}

/** Resolves when `release()` is called: a handler that stays in flight as long as the test wants. */
function gate() {
  let release: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { opened, release };
}

/** A MemoryStore that counts the ordered claims it answered `busy`: how a test knows an event is waiting. */
class BusyCountingStore extends MemoryStore {
  busy = 0;
  override claimInOrder(...args: Parameters<MemoryStore["claimInOrder"]>): ReturnType<MemoryStore["claimInOrder"]> {
    const claim = super.claimInOrder(...args);
    if (claim.state === "busy") this.busy++;
    return claim;
  }
}

describe("a Receiver with order", () => {
  it("runs a message's statuses in increasing position and answers older ones stale, remembered as done", async () => {
    const seen: string[] = [];
    const receiver = createReceiver({ secret: SECRET, order: messageStatusOrder, logger: quiet }).onAny((event) => {
      seen.push(String(event.type));
    });
    expect((await receiver.receive(delivery("msg_1", 2))).status).toBe(200);
    const stale = await receiver.receive(delivery("msg_1", 1));
    expect(stale).toMatchObject({ code: "stale", status: 200 });
    expect(JSON.parse(stale.body)).toEqual({ received: true, stale: true });
    // Its replay is a duplicate, not stale again.
    expect(await receiver.receive(delivery("msg_1", 1))).toMatchObject({ code: "duplicate", status: 200 });
    expect(await receiver.receive(delivery("msg_1", 3))).toMatchObject({ code: "accepted" });
    expect(seen).toEqual(["message.sent", "message.delivered"]);
  });

  it("of two final statuses, runs the first handled and answers the other stale", async () => {
    const seen: string[] = [];
    const receiver = createReceiver({ secret: SECRET, order: messageStatusOrder, logger: quiet }).onAny((event) => {
      seen.push(String(event.type));
    });
    const failedPayload = { id: "f", type: "message.failed", data: { id: "msg_2", status: "failed", channel: "sms" } };
    const rawBody = new TextEncoder().encode(JSON.stringify(failedPayload));
    await receiver.receive(delivery("msg_2", 3));
    expect(await receiver.receive({ rawBody, headers: { "service-signature": sign(rawBody, SECRET) } })).toMatchObject({
      code: "stale",
    });
    expect(seen).toEqual(["message.delivered"]);
  });

  it("makes an event of a busy message wait for it, then runs it once the first one is done", async () => {
    const { opened, release } = gate();
    const seen: string[] = [];
    const store = new BusyCountingStore();
    const receiver = createReceiver({
      secret: SECRET,
      order: messageStatusOrder,
      store,
      orderWaitMs: 20_000,
      logger: quiet,
    }).onAny(async (event) => {
      seen.push(`start ${event.type}`);
      if (event.type === "message.queued") await opened;
      seen.push(`end ${event.type}`);
    });
    const first = receiver.receive(delivery("msg_3", 1));
    const second = receiver.receive(delivery("msg_3", 2));
    // The first is released once the second has found its message busy (or, wrongly, has started).
    await until(() => store.busy > 0 || seen.includes("start message.sent"), "the second to find its message busy");
    release();
    expect((await first).code).toBe("accepted");
    expect((await second).code).toBe("accepted");
    expect(seen).toEqual(["start message.queued", "end message.queued", "start message.sent", "end message.sent"]);
  });

  it("answers 409 object_busy with Retry-After once orderWaitMs passes, and the retry runs it", async () => {
    const { opened, release } = gate();
    const receiver = createReceiver({
      secret: SECRET,
      order: messageStatusOrder,
      orderWaitMs: 30,
      logger: quiet,
    }).onAny(async (event) => {
      if (event.type === "message.queued") await opened;
    });
    const first = receiver.receive(delivery("msg_4", 1));
    const busy = await afterFakeTime(30, () => receiver.receive(delivery("msg_4", 2)));
    expect(busy).toMatchObject({ code: "object_busy", status: 409 });
    expect(STATUS_BY_CODE.object_busy).toBe(409);
    expect(Number(busy.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(busy.body).error.code).toBe("object_busy");
    release();
    expect((await first).code).toBe("accepted");
    expect((await receiver.receive(delivery("msg_4", 2))).code).toBe("accepted");
  });

  it("leaves the position where it was when a handler fails, so the retry runs", async () => {
    let fail = true;
    const receiver = createReceiver({ secret: SECRET, order: messageStatusOrder, logger: quiet }).onAny(() => {
      if (fail) throw new Error("database down");
    });
    expect((await receiver.receive(delivery("msg_5", 2))).status).toBe(500);
    fail = false;
    expect((await receiver.receive(delivery("msg_5", 1))).code).toBe("accepted");
    expect((await receiver.receive(delivery("msg_5", 2))).code).toBe("accepted");
  });

  it("runs events without a key or position as it always did", async () => {
    let runs = 0;
    const receiver = createReceiver({ secret: SECRET, order: messageStatusOrder, logger: quiet }).onAny(() => {
      runs++;
    });
    const unknown = { id: "u1", type: "message.bounced", data: { id: "msg_6" } };
    const noKey = { id: "u2", type: "message.sent", data: { status: "sent" } };
    for (const payload of [unknown, noKey]) {
      const rawBody = new TextEncoder().encode(JSON.stringify(payload));
      expect((await receiver.receive({ rawBody, headers: { "service-signature": sign(rawBody, SECRET) } })).code).toBe(
        "accepted",
      );
    }
    expect(runs).toBe(2);
  });

  it("takes a custom order: a sequence number per account", async () => {
    type Events = { "account.updated": { id: string; type: "account.updated"; account: string; seq: number } };
    const seen: number[] = [];
    const receiver = createReceiver<Events>({
      secret: SECRET,
      order: { key: (event) => event.account, position: (event) => event.seq },
      logger: quiet,
    }).on("account.updated", (event) => {
      seen.push(event.seq);
    });
    for (const seq of [3, 1, 5, 4]) {
      const payload = { id: `a-${seq}`, type: "account.updated", account: "acct_1", seq };
      const rawBody = new TextEncoder().encode(JSON.stringify(payload));
      await receiver.receive({ rawBody, headers: { "service-signature": sign(rawBody, SECRET) } });
    }
    expect(seen).toEqual([3, 5]);
  });

  it("tells outcome listeners stale as a normal outcome", async () => {
    const outcomes: DeliveryOutcome[] = [];
    const receiver = createReceiver({ secret: SECRET, order: messageStatusOrder, logger: quiet }).onOutcome(
      (outcome) => {
        outcomes.push(outcome);
      },
    );
    await receiver.receive(delivery("msg_7", 3));
    await receiver.receive(delivery("msg_7", 2));
    expect(outcomes.map(({ code, status }) => [code, status])).toEqual([
      ["accepted", 200],
      ["stale", 200],
    ]);
  });

  it("instrumented: a stale delivery's span is a normal outcome, object_busy a 4xx, neither an error", async () => {
    const sdk = new RecordingSdk();
    const { opened, release } = gate();
    const receiver = createReceiver({ secret: SECRET, order: messageStatusOrder, orderWaitMs: 10, logger: quiet });
    receiver.onAny(async (event) => {
      if (event.type === "message.sent") await opened;
    });
    instrument(receiver, sdk.options);
    try {
      const first = receiver.receive(delivery("msg_9", 2));
      expect((await afterFakeTime(10, () => receiver.receive(delivery("msg_9", 3)))).code).toBe("object_busy");
      release();
      await first;
      expect((await receiver.receive(delivery("msg_9", 1))).code).toBe("stale");
      const spans = sdk.spanNamed("tidings.delivery");
      const outcomes = spans.map((span) => [span.attributes["tidings.outcome"], span.status.code]);
      expect(outcomes).toEqual([
        ["object_busy", SpanStatusCode.UNSET],
        ["accepted", SpanStatusCode.UNSET],
        ["stale", SpanStatusCode.UNSET],
      ]);
    } finally {
      await sdk.shutdown();
    }
  });

  it("refuses at setup a store that keeps no order, naming what is missing", () => {
    const plain: DeliveryStore = {
      claim: () => ({ state: "claimed", token: "t" }),
      complete: () => true,
      release: () => true,
    };
    expect(() => createReceiver({ secret: SECRET, store: plain, order: messageStatusOrder })).toThrow(
      /`order` needs a store that keeps order.*claimInOrder, completeInOrder, releaseInOrder/,
    );
    expect(() => createReceiver({ secret: SECRET, store: plain })).not.toThrow();
    expect(() => createReceiver({ secret: SECRET, order: messageStatusOrder, orderWaitMs: -1 })).toThrow(TypeError);
    expect(() => createReceiver({ secret: SECRET, store: new MemoryStore(), order: messageStatusOrder })).not.toThrow();
  });

  it("keeps two endpoints' objects apart", async () => {
    let runs = 0;
    const receiver = createReceiver({
      secret: ({ params }) => ({ secret: SECRET, endpoint: params.account ?? "" }),
      order: messageStatusOrder,
      logger: quiet,
    }).onAny(() => {
      runs++;
    });
    for (const account of ["a", "b"]) {
      const request = delivery("msg_8", 2, `evt-${account}`);
      const target = { path: `/webhooks/${account}`, route: "/webhooks/:account", params: { account } };
      expect((await receiver.receive({ ...request, target })).code).toBe("accepted");
    }
    expect(runs).toBe(2);
  });
});
