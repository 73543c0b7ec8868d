import type { MessageEvents } from "@tidings/core";
import { QueueWorker, type QueueWorkerOptions, toQueuedDelivery, type WorkerContext } from "@tidings/core/dispatch";

/** A worker with no engine: the test hands it each job's data, as an engine would. */
export class ListWorker<Tx> extends QueueWorker<MessageEvents, WorkerContext & { transaction: Tx }> {
  constructor(options: QueueWorkerOptions) {
    super(options, { system: "list", queue: "deliveries" });
  }
  runJob(data: unknown, attempt = 1) {
    return this.run(data, { id: "job", attempt });
  }
  async close() {}
}

/** A job's data, as `enqueueTo` stores it, for one event of message `msg_1`. */
export function job(id: string, status: "sent" | "delivered") {
  const event = { id, type: `message.${status}`, data: { id: "msg_1", status, channel: "sms" } };
  const context = {
    type: event.type,
    deliveryKey: `event:${id}`,
    timestamp: 1,
    secretIndex: 0,
    verifiedBody: new Uint8Array(),
    headers: {},
  };
  return toQueuedDelivery(event, context, false);
}
