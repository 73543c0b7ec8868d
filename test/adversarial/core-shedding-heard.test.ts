import { createReceiver, type ReceiveErrorInfo, SIGNATURE_HEADER, sign } from "@tidings/core";
import { expect, it } from "vitest";

const SECRET = "whsec_shedding";

function delivery(id: string) {
  const rawBody = new TextEncoder().encode(JSON.stringify({ id, type: "message.sent" }));
  return { rawBody, headers: { [SIGNATURE_HEADER]: sign(rawBody, SECRET) } };
}

/** A receiver taking one delivery at a time, its only handler held until `release` is called. */
function busyReceiver(logger: { error(...values: unknown[]): void; warn(...values: unknown[]): void }) {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const receiver = createReceiver({ secret: SECRET, maxConcurrentDeliveries: 1, logger }).onAny(() => held);
  return { receiver, release };
}

it("tells onError of every delivery shed, with its 503", async () => {
  const { receiver, release } = busyReceiver({ error() {}, warn() {} });
  const heard: ReceiveErrorInfo[] = [];
  receiver.onError((_error, info) => {
    heard.push(info);
  });
  const first = receiver.receive(delivery("evt_0"));
  const shed = await Promise.all([1, 2, 3].map((n) => receiver.receive(delivery(`evt_${n}`))));
  expect(shed.map(({ code }) => code)).toEqual(["overloaded", "overloaded", "overloaded"]);
  expect(heard.map(({ code, status }) => ({ code, status }))).toEqual(
    Array(3).fill({ code: "overloaded", status: 503 }),
  );
  release();
  expect((await first).code).toBe("accepted");
});

it("without onError, warns the logger once for a burst rather than once per delivery", async () => {
  const warnings: unknown[] = [];
  const { receiver, release } = busyReceiver({ error() {}, warn: (line) => warnings.push(line) });
  const first = receiver.receive(delivery("evt_0"));
  for (let n = 1; n <= 50; n++) expect((await receiver.receive(delivery(`evt_${n}`))).code).toBe("overloaded");
  expect(warnings).toEqual([expect.objectContaining({ code: "overloaded" })]);
  release();
  await first;
});
