import {
  createReceiver,
  type DeliveryContext,
  MemoryStore,
  type MessageEvents,
  messageStatusOrder,
  SIGNATURE_HEADER,
  sign,
} from "@tidings/core";
import { type JobRun, QueueWorker, type QueueWorkerOptions, toQueuedDelivery } from "@tidings/core/dispatch";
import { afterEach, beforeEach, expect, it, vi } from "vitest";

// The subject is a lease running out while a handler runs. The renewals run on timers and MemoryStore reads the time
// from Date.now: both on vitest's fake clock, which the test moves on past three leases. (Stores, Receiver and workers
// are made after the clock is installed: they take Date.now when they are made.)
const LEASE_MS = 150;
const SECRET = "whsec_lease";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(async () => {
  // The renewals' shared timer ticks once more after its last deadline: let it, so the next test starts it afresh.
  await vi.runAllTimersAsync();
  vi.useRealTimers();
});

interface Gate {
  opened: Promise<void>;
  open(): void;
}

function gate(): Gate {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

function statusEvent(status: "sent" | "delivered") {
  return { id: `evt_${status}`, type: `message.${status}`, data: { id: "msg_1", status, channel: "sms" } };
}

/** What the app's handlers wrote for msg_1, in order, and how many ran at once at most. */
function statusTable() {
  const written: string[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const write = async (status: string, wait: Promise<void>) => {
    running++;
    mostAtOnce = Math.max(mostAtOnce, running);
    await wait;
    written.push(status);
    running--;
  };
  return { written, write, mostAtOnce: () => mostAtOnce };
}

it("a Receiver's handler that outlives its lease keeps its object: the next status waits, and lands last", async () => {
  const table = statusTable();
  const slowSent = gate();
  const receiver = createReceiver({
    secret: SECRET,
    store: new MemoryStore(),
    order: messageStatusOrder,
    orderWaitMs: 0,
    leaseMs: LEASE_MS,
    handlerTimeoutMs: LEASE_MS / 3,
    logger: { error() {}, warn() {} },
  }).on(["message.sent", "message.delivered"], (event) =>
    table.write(event.data.status, event.type === "message.sent" ? slowSent.opened : Promise.resolve()),
  );
  const deliver = (status: "sent" | "delivered") => {
    const rawBody = new TextEncoder().encode(JSON.stringify(statusEvent(status)));
    return receiver.receive({ rawBody, headers: { [SIGNATURE_HEADER]: sign(rawBody, SECRET) } });
  };

  const first = deliver("sent");
  await vi.advanceTimersByTimeAsync(LEASE_MS / 3);
  expect((await first).code).toBe("handler_timeout");
  // Three leases later the sent handler still runs: its object must still be its own.
  await vi.advanceTimersByTimeAsync(3 * LEASE_MS);
  expect((await deliver("delivered")).code).toBe("object_busy");
  slowSent.open();
  await slowSent.opened;
  let retried = await deliver("delivered");
  while (retried.code === "object_busy") retried = await deliver("delivered");
  expect(retried.code).toBe("accepted");
  expect(table.written).toEqual(["sent", "delivered"]);
  expect(table.mostAtOnce()).toBe(1);
  expect((await deliver("sent")).code).toBe("duplicate");
});

/** An engine of the test's own: runs one job on request and says what the worker answered. */
class TestWorker extends QueueWorker<MessageEvents> {
  constructor(options: QueueWorkerOptions<MessageEvents>) {
    super(options, { system: "test", queue: "deliveries" });
  }

  runJob(data: unknown, job: JobRun) {
    return this.run(data, job);
  }

  async close(): Promise<void> {}
}

it("two workers: a job whose handler outlives the lease keeps its object from the other worker's newer job", async () => {
  const table = statusTable();
  const slowSent = gate();
  const store = new MemoryStore();
  const options = { order: messageStatusOrder, store, leaseMs: LEASE_MS, orderWaitMs: 0, logger: { error() {} } };
  const workers = [new TestWorker(options), new TestWorker(options)].map((worker) =>
    worker.on(["message.sent", "message.delivered"], (event) =>
      table.write(event.data.status, event.type === "message.sent" ? slowSent.opened : Promise.resolve()),
    ),
  );
  const job = (status: "sent" | "delivered") => {
    const context: DeliveryContext = {
      type: `message.${status}`,
      deliveryKey: `event:evt_${status}`,
      timestamp: Math.floor(Date.now() / 1000),
      secretIndex: 0,
      endpoint: undefined,
      verifiedBody: new Uint8Array(),
      headers: {},
      idempotencyKey: () => "unused",
    };
    return toQueuedDelivery(statusEvent(status), context, false);
  };

  const sent = (workers[0] as TestWorker).runJob(job("sent"), { id: "job-sent", attempt: 1 });
  await vi.advanceTimersByTimeAsync(3 * LEASE_MS);
  const second = workers[1] as TestWorker;
  expect(await second.runJob(job("delivered"), { id: "job-delivered", attempt: 1 })).toBe("deferred");
  slowSent.open();
  expect(await sent).toBe("completed");
  expect(await second.runJob(job("delivered"), { id: "job-delivered", attempt: 1 })).toBe("completed");
  expect(table.written).toEqual(["sent", "delivered"]);
  expect(table.mostAtOnce()).toBe(1);
});
