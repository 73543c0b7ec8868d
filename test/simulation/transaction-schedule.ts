import type { PGlite } from "@electric-sql/pglite";
import fc from "fast-check";
import { VirtualClock } from "./clock";
import type { SimEvent } from "./model";
import { TransactionWorld, TX_FAULTS, type TxFault, type TxSide } from "./transaction-world";
import { START } from "./world";

/** Two messages' statuses (both final statuses of one at the same position) and an event no order applies to. */
export const TX_EVENTS: SimEvent[] = [
  ["message.queued", "msg_a", 1],
  ["message.sent", "msg_a", 2],
  ["message.delivered", "msg_a", 3],
  ["message.failed", "msg_a", 3],
  ["message.sent", "msg_b", 2],
  ["message.delivered", "msg_b", 3],
  ["message.opened", "msg_c", undefined],
].map(([type, object, position], index) => ({
  index,
  id: `evt_${index}`,
  type: type as string,
  object: object as string,
  position: position as number | undefined,
}));

export type TxCommand =
  | { kind: "deliver"; event: number; process: number; fault: TxFault }
  | { kind: "advance"; ms: number };

export interface TxSchedule {
  side: TxSide;
  ordered: boolean;
  commands: TxCommand[];
}

/** Faults come one run in two: most runs fault, and every event is also sent again later. */
export function txScheduleArbitrary(maxCommands = 24): fc.Arbitrary<TxSchedule> {
  const deliver = fc.record({
    kind: fc.constant("deliver" as const),
    event: fc.nat(TX_EVENTS.length - 1),
    process: fc.nat(1),
    fault: fc.oneof(fc.constant("none" as const), fc.constantFrom(...TX_FAULTS)),
  });
  const advance = fc.record({ kind: fc.constant("advance" as const), ms: fc.constantFrom(100, 2_000, 11_000, 60_000) });
  return fc.record({
    side: fc.constantFrom("receiver" as const, "worker" as const),
    ordered: fc.boolean(),
    commands: fc.array(fc.oneof({ weight: 4, arbitrary: deliver }, { weight: 1, arbitrary: advance }), {
      minLength: 1,
      maxLength: maxCommands,
    }),
  });
}

/**
 * Plays one schedule: its commands, then (its faults over) every event delivered again after every lease has run
 * out, so that each ends acknowledged; the effects model checks every invariant after every step.
 */
let schedules = 0;

export async function runTxSchedule(db: PGlite, schedule: TxSchedule, transactional = true): Promise<TransactionWorld> {
  const clock = new VirtualClock(START);
  const restore = clock.install();
  const run = ++schedules;
  const options = { side: schedule.side, ordered: schedule.ordered, events: TX_EVENTS, transactional };
  const world = new TransactionWorld(options, clock, db, {
    store: `tx_${run}`,
    app: `tx_${run}_effects`,
  });
  try {
    await world.setup();
    for (const command of schedule.commands) {
      if (command.kind === "advance") await world.advance(command.ms);
      else
        await world.step(
          schedule.side === "receiver" ? "deliver" : "job",
          command.event,
          command.process,
          command.fault,
        );
      if (world.model.violations.length > 0) return world;
    }
    await world.advance(60_000);
    for (const event of TX_EVENTS) {
      await world.step(schedule.side === "receiver" ? "deliver" : "job", event.index, event.index, "none");
      if (world.model.violations.length > 0) return world;
    }
    world.model.checkAllAcknowledged();
    return world;
  } finally {
    // Timers left behind fire now, so the next schedule starts from none.
    await clock.advance(24 * 60 * 60_000, () => world.settle());
    restore();
  }
}

/** Fails with the schedule's log when an invariant broke. */
export function txProperty(db: PGlite, maxCommands?: number, transactional = true) {
  return fc.asyncProperty(txScheduleArbitrary(maxCommands), async (schedule) => {
    const world = await runTxSchedule(db, schedule, transactional);
    if (world.model.violations.length > 0) {
      throw new Error(`${world.model.violations.join("\n")}\n\nlog:\n${world.model.log.join("\n")}`);
    }
  });
}
