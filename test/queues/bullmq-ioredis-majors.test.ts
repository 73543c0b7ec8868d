import { createWorker, enqueueTo } from "@tidings/bullmq";
import { createReceiver, type MessageEvents, sign } from "@tidings/core";
import { Queue } from "bullmq";
import { Redis as Redis5 } from "ioredis";
import { Redis as Redis6 } from "ioredis6";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisServer } from "../support/redis-server";

// @tidings/bullmq's peer range is ^5.4.0 || ^6.0.0: the hand-off works with a connection of either major, as
// `npm i @tidings/bullmq bullmq ioredis` installs the newest.
const options = (port: number) => ({ host: "127.0.0.1", port, maxRetriesPerRequest: null });
const MAJORS = {
  "ioredis 5": (port: number) => new Redis5(options(port)),
  "ioredis 6": (port: number) => new Redis6(options(port)),
};
const SECRET = "whsec_ioredis_majors";

let redis: RedisServer;
beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(async () => {
  await redis.stop();
});

describe.each(Object.entries(MAJORS))("BullMQ hand-off with an %s client", (major, connect) => {
  it("enqueues a verified delivery and a worker runs its handler", async () => {
    const client = () => connect(redis.port);
    const queue = new Queue(`majors-${major.replace(" ", "-")}`, { connection: client() });
    const worker = createWorker<MessageEvents>({ queue: queue.name, connection: client() });
    try {
      const handled = new Promise<string>((resolve) => {
        worker.on("message.delivered", (event) => resolve(event.data.id));
      });
      const receiver = createReceiver({ secret: SECRET });
      receiver.onAny(enqueueTo(queue));
      const body = JSON.stringify({
        id: `evt_${major}`,
        type: "message.delivered",
        data: { id: "msg_majors", status: "delivered", channel: "sms" },
      });
      const result = await receiver.receive({
        rawBody: new TextEncoder().encode(body),
        headers: { "service-signature": sign(body, SECRET) },
      });
      expect(result.status).toBe(200);
      expect(await handled).toBe("msg_majors");
      expect(await queue.getJobCounts("completed", "active", "waiting")).toMatchObject({ waiting: 0 });
    } finally {
      await worker.close();
      await queue.close();
    }
  });
});
