import { createReceiver } from "@tidings/core";
import { afterEach, describe, expect, it } from "vitest";
import { delivery, eventBody, SECRET } from "../conformance/deliveries";
import { openSlowUpload, type SlowUpload } from "../conformance/partial-body";
import { type RunningApp, WEBHOOK_PATH } from "../conformance/target";
import { SOCKET_TARGETS } from "../conformance/targets";

let running: RunningApp | undefined;
const uploads: SlowUpload[] = [];
afterEach(async () => {
  // A body never answered keeps its connection, and the server's close waits for it: end the clients' side first.
  for (const upload of uploads.splice(0)) upload.destroy();
  await running?.close();
  running = undefined;
});

describe.each(SOCKET_TARGETS)("$name: bodies stalling together", (target) => {
  it.each([2, 4, 8, 32])(
    "answers each of %i stalled bodies 408, and their slots come back",
    async (count) => {
      const receiver = createReceiver({
        secret: SECRET,
        bodyTimeoutMs: 200,
        maxConcurrentDeliveries: count,
        logger: { error() {}, warn() {} },
      });
      let handled = 0;
      receiver.onAny(() => {
        handled++;
      });
      const app = await target.start(receiver);
      running = app;
      // Every one announces its whole body and sends 10 bytes of it, all within one deadline bucket, then stalls.
      for (let n = 0; n < count; n++) {
        uploads.push(openSlowUpload(app.url as string, WEBHOOK_PATH, delivery(eventBody()), 10));
      }
      const stalled = await Promise.all(uploads.map((upload) => upload.answer));
      expect(stalled.map((answer) => answer?.status)).toEqual(Array(count).fill(408));
      expect(stalled.map((answer) => JSON.parse(answer?.body ?? "{}").error?.code)).toEqual(
        Array(count).fill("body_timeout"),
      );
      // All the slots are free again: as many signed deliveries at once are all taken.
      const signed = await Promise.all(Array.from({ length: count }, () => app.send(delivery(eventBody()))));
      expect(signed.map((answer) => answer.status)).toEqual(Array(count).fill(200));
      expect(handled).toBe(count);
    },
    30_000,
  );
});
