import { setMaxListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";

import { buildEvent, type Channel, type MessageEventType } from "../events";
import { FIXTURES } from "../fixtures";
import { randomId } from "../ids";
import { attemptDelivery, isSuccess } from "./attempt";
import { type ChaosSettings, describeChaos, type EventChaos, hasChaos, planChaos } from "./chaos";
import type { AttemptRecord, EventRecord, Journal, MessageRecord } from "./journal";
import { type RetryPolicy, retryDelayMs } from "./rules";

export interface AcceptedMessage {
  id: string;
  channel: Channel;
  /** Sent to a failing test recipient: the sequence ends with `message.failed`. */
  fails: boolean;
}

export interface DelivererOptions {
  webhookUrl: string;
  secret: string;
  retry: RetryPolicy;
  attemptTimeoutMs: number;
  chaos: ChaosSettings;
  journal: Journal;
  log: (line: string) => void;
}

export interface Deliverer {
  /** Starts the message's event sequence in the background. */
  deliver(message: AcceptedMessage): void;
  /** Delivers one event of `type` (its fixture, fresh ids) as a message of its own; returns that message's id. */
  sendTestEvent(type: MessageEventType): string;
  /** Sends one more attempt of an event already known; false when there is no such event. */
  resend(messageId: string, eventId: string): boolean;
  /** While paused every attempt fails without reaching the receiver (an outage) and is retried as usual. */
  paused: boolean;
  /** Applies to messages accepted from now on. */
  chaos: ChaosSettings;
  /** Resolves when every sequence started so far has ended (delivered or abandoned). */
  idle(): Promise<void>;
  /** Cancels waits and attempts in flight; resolves when every sequence has stopped. */
  close(): Promise<void>;
}

export function eventSequence(message: AcceptedMessage): MessageEventType[] {
  return ["message.queued", "message.sent", message.fails ? "message.failed" : "message.delivered"];
}

/** `400 signature_mismatch`, `200`, `ECONNREFUSED`: the status and the receiver's error code, or why no answer. */
const outcomeOf = (attempt: AttemptRecord) =>
  attempt.status === undefined ? attempt.error : `${attempt.status}${attempt.code ? ` ${attempt.code}` : ""}`;

/** Delivers each message's events in order; each event is retried with exponential backoff until a 2xx. */
export function createDeliverer(options: DelivererOptions): Deliverer {
  const { webhookUrl, secret, retry, attemptTimeoutMs, journal, log } = options;
  const stopping = new AbortController();
  // Every wait and attempt in flight listens to it: past ten messages at once, Node would warn of a leak.
  setMaxListeners(0, stopping.signal);
  const running = new Set<Promise<void>>();
  const state = { paused: false, chaos: options.chaos, accepted: 0 };

  const attempt = (event: EventRecord, skewS: number, extra?: AttemptRecord["extra"]) =>
    attemptDelivery(event, {
      webhookUrl,
      secret,
      timeoutMs: attemptTimeoutMs,
      stopping: stopping.signal,
      paused: state.paused,
      skewS,
      ...(extra ? { extra } : {}),
    });

  /** Returns once the event got a 2xx, was abandoned, or the emulator stopped. */
  async function deliverEvent(message: MessageRecord, event: EventRecord, chaos: EventChaos): Promise<void> {
    const label = `${message.id} ${event.type}`;
    event.state = "delivering";
    for (let n = 1; n <= retry.attempts; n++) {
      const result = await attempt(event, chaos.skewS);
      if (isSuccess(result)) event.state = "delivered";
      journal.changed(message);
      if (stopping.signal.aborted) return;
      if (isSuccess(result)) {
        log(`${label} attempt ${n}/${retry.attempts}: ${result.status}, delivered`);
        if (chaos.duplicate) {
          const again = await attempt(event, chaos.skewS, "duplicate");
          log(`${label} sent again (chaos: duplicate): ${outcomeOf(again)}`);
          journal.changed(message);
        }
        return;
      }
      if (n === retry.attempts) break;
      const delay = retryDelayMs(retry, n);
      log(`${label} attempt ${n}/${retry.attempts}: ${outcomeOf(result)}, next retry in ${delay} ms`);
      await sleep(delay, undefined, { signal: stopping.signal });
    }
    log(
      `${label} attempt ${retry.attempts}/${retry.attempts}: ${outcomeOf(event.attempts.at(-1) as AttemptRecord)}, giving up`,
    );
    event.state = "abandoned";
    journal.changed(message);
  }

  function track(label: string, work: () => Promise<void>): void {
    const task = work()
      .catch((error: unknown) => {
        if (!stopping.signal.aborted) log(`${label} stopped: ${(error as Error).message}`);
      })
      .finally(() => running.delete(task));
    running.add(task);
  }

  function start(message: MessageRecord, plan: readonly EventChaos[]): void {
    journal.add(message);
    track(message.id, async () => {
      for (const [i, chaos] of plan.entries()) {
        if (chaos.delayMs > 0) await sleep(chaos.delayMs, undefined, { signal: stopping.signal });
        await deliverEvent(message, message.events[i] as EventRecord, chaos);
      }
    });
  }

  async function idle(): Promise<void> {
    while (running.size > 0) await Promise.all(running);
  }

  function record(
    id: string,
    channel: Channel,
    origin: MessageRecord["origin"],
    plan: readonly EventChaos[],
    chaos: string,
  ) {
    const events = plan.map(({ type }): EventRecord => {
      const event = buildEvent(type, { id, channel });
      return { id: event.id, type, payload: JSON.stringify(event), state: "waiting", attempts: [] };
    });
    return { id, channel, origin, createdAt: new Date().toISOString(), chaos, events } satisfies MessageRecord;
  }

  return {
    deliver(message) {
      if (stopping.signal.aborted) return;
      const types = eventSequence(message);
      const plan = planChaos(state.chaos, state.accepted++, types);
      const chaos = hasChaos(state.chaos) ? describeChaos(plan, types) : "none";
      if (chaos !== "none") log(`${message.id} chaos: ${chaos}`);
      start(record(message.id, message.channel, "api", plan, chaos), plan);
    },
    sendTestEvent(type) {
      const plan: EventChaos[] = [{ type, delayMs: 0, duplicate: false, skewS: 0 }];
      const message = record(randomId("msg_"), FIXTURES[type].data.channel, "test", plan, "none");
      log(`${message.id} test event ${type} from the dashboard`);
      start(message, plan);
      return message.id;
    },
    resend(messageId, eventId) {
      const message = journal.get(messageId);
      const event = message?.events.find((candidate) => candidate.id === eventId);
      if (!message || !event || stopping.signal.aborted) return false;
      track(messageId, async () => {
        const result = await attempt(event, 0, "resend");
        log(`${messageId} ${event.type} resent from the dashboard: ${outcomeOf(result)}`);
        journal.changed(message);
      });
      return true;
    },
    get paused() {
      return state.paused;
    },
    set paused(paused) {
      state.paused = paused;
      log(paused ? "deliveries paused: every attempt fails until resumed" : "deliveries resumed");
    },
    get chaos() {
      return state.chaos;
    },
    set chaos(chaos) {
      state.chaos = chaos;
    },
    idle,
    close() {
      stopping.abort();
      return idle();
    },
  };
}
