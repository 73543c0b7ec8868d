/**
 * Fills queues for the worker benchmark through our hand-off, as a receiver would (a Receiver with enqueueTo, in
 * process, no HTTP): argv engine. `add` resolves once every job is stored.
 */
import { createReceiver, type Receiver } from "@tidings/core";
import { DeliveryFactory } from "../http/deliveries";
import { serveCommands } from "../lib/children";
import { SECRET, SIGNATURE_HEADER } from "../lib/deliveries";
import { type EngineId, openEngine } from "./engines/engine";

const IN_FLIGHT = 16;
const engine = await openEngine(process.argv[2] as EngineId);
const receivers = new Map<string, Receiver>();
const factory = new DeliveryFactory(Number(process.argv[3]), `jobs-${process.pid}`);

async function add({ queue, count }: { queue: string; count: number }): Promise<void> {
  let receiver = receivers.get(queue);
  if (!receiver) {
    receiver = createReceiver({ secret: SECRET }).onAny(engine.enqueueTo(queue));
    receivers.set(queue, receiver);
  }
  let left = count;
  const lane = async (into: Receiver) => {
    while (left-- > 0) {
      const { body, header } = factory.next();
      const result = await into.receive({ rawBody: body, headers: { [SIGNATURE_HEADER]: header } });
      if (result.status !== 200) throw new Error(`enqueueing into ${queue}: ${result.status} ${result.body}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, () => lane(receiver)));
}

serveCommands({ add });
