import { setTimeout as sleep } from "node:timers/promises";
import type { Channel } from "@tidings/core";
import { buildEvent, type MessageEventType } from "../events";
import { networkErrorName, postSignedEvent } from "../post";
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
  log: (line: string) => void;
}

export interface Deliverer {
  /** Starts the message's event sequence in the background. */
  deliver(message: AcceptedMessage): void;
  /** Resolves when every sequence started so far has ended (delivered or abandoned). */
  idle(): Promise<void>;
  /** Cancels waits and attempts in flight; resolves when every sequence has stopped. */
  close(): Promise<void>;
}

export function eventSequence(message: AcceptedMessage): MessageEventType[] {
  return ["message.queued", "message.sent", message.fails ? "message.failed" : "message.delivered"];
}

/** Delivers each message's events in order; each event is retried with exponential backoff until a 2xx. */
export function createDeliverer(options: DelivererOptions): Deliverer {
  const { webhookUrl, secret, retry, attemptTimeoutMs, log } = options;
  const stopping = new AbortController();
  const running = new Set<Promise<void>>();

  /** Returns true when the event got a 2xx, false when it was abandoned. */
  async function deliverEvent(message: AcceptedMessage, type: MessageEventType): Promise<boolean> {
    const payload = JSON.stringify(buildEvent(type, { id: message.id, channel: message.channel }));
    for (let attempt = 1; attempt <= retry.attempts; attempt++) {
      const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(attemptTimeoutMs)]);
      let outcome: string;
      try {
        const { status } = await postSignedEvent(webhookUrl, payload, secret, signal);
        if (status >= 200 && status < 300) {
          log(`${message.id} ${type} attempt ${attempt}/${retry.attempts}: ${status}, delivered`);
          return true;
        }
        outcome = String(status);
      } catch (error) {
        if (stopping.signal.aborted) return false;
        outcome = networkErrorName(error);
      }
      if (attempt === retry.attempts) {
        log(`${message.id} ${type} attempt ${attempt}/${retry.attempts}: ${outcome}, giving up`);
        return false;
      }
      const delay = retryDelayMs(retry, attempt);
      log(`${message.id} ${type} attempt ${attempt}/${retry.attempts}: ${outcome}, next retry in ${delay} ms`);
      try {
        await sleep(delay, undefined, { signal: stopping.signal });
      } catch {
        return false;
      }
    }
    return false;
  }

  async function sequence(message: AcceptedMessage): Promise<void> {
    for (const type of eventSequence(message)) {
      if (stopping.signal.aborted) return;
      await deliverEvent(message, type);
    }
  }

  async function idle(): Promise<void> {
    while (running.size > 0) await Promise.all(running);
  }

  return {
    deliver(message) {
      if (stopping.signal.aborted) return;
      const task = sequence(message)
        .catch((error: unknown) => log(`${message.id} stopped: ${(error as Error).message}`))
        .finally(() => running.delete(task));
      running.add(task);
    },
    idle,
    close() {
      stopping.abort();
      return idle();
    },
  };
}
