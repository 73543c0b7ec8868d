import type { Channel, MessageEventType } from "../events";

/**
 * One POST of an event to the webhook URL, as the dashboard shows it.
 *
 * @example
 * ```ts
 * import type { AttemptRecord, MessageRecord } from "@tidings/cli";
 *
 * // From the dashboard's state (`GET <dashboardUrl>/api/state`): the attempts your receiver refused.
 * const refused = (messages: MessageRecord[]): AttemptRecord[] =>
 *   messages
 *     .flatMap((message) => message.events.flatMap((event) => event.attempts))
 *     .filter((attempt) => attempt.status !== 200);
 * ```
 */
export interface AttemptRecord {
  /** ISO 8601, when it was sent. */
  at: string;
  /** The HTTP status, when the receiver answered. */
  status?: number;
  /** The receiver's `error.code`, when a non-2xx answer was in that shape (as Tidings receivers answer). */
  code?: string;
  /** Why there was no answer: `ECONNREFUSED`, `timeout`, `paused` (an outage from the dashboard). */
  error?: string;
  latencyMs: number;
  /** The first bytes of the response body, as text. */
  responseStart: string;
  /** The Service-Signature header it carried. */
  signature: string;
  /** Why it was sent beyond the event's own attempts. */
  extra?: "duplicate" | "resend";
}

/**
 * One event of a message: the exact JSON sent, where its delivery stands, and every attempt.
 *
 * @example
 * ```ts
 * import type { EventRecord, MessageRecord } from "@tidings/cli";
 *
 * // From the dashboard's state (`GET <dashboardUrl>/api/state`): the events the emulator gave up on.
 * const abandoned = (messages: MessageRecord[]): EventRecord[] =>
 *   messages.flatMap((message) => message.events).filter((event) => event.state === "abandoned");
 * ```
 */
export interface EventRecord {
  id: string;
  type: MessageEventType;
  /** The exact JSON sent (every attempt sends these bytes). */
  payload: string;
  state: "waiting" | "delivering" | "delivered" | "abandoned";
  attempts: AttemptRecord[];
}

/**
 * One message the emulator accepted (or a test event sent from the dashboard), with its events.
 *
 * @example
 * ```ts
 * import { type MessageRecord, startEmulator } from "@tidings/cli";
 *
 * const emulator = await startEmulator({
 *   webhookUrl: "http://127.0.0.1:3000/webhooks",
 *   secret: "whsec_local_test",
 *   dashboard: true,
 * });
 * const state = await fetch(`${emulator.dashboardUrl}/api/state`);
 * const { messages } = (await state.json()) as { messages: MessageRecord[] };
 * console.log(messages.map((message) => `${message.id}: ${message.events.map((event) => event.state).join(", ")}`));
 * ```
 */
export interface MessageRecord {
  id: string;
  channel: Channel;
  /** `api`: created through POST /v3/messages; `test`: a test event sent from the dashboard. */
  origin: "api" | "test";
  createdAt: string;
  /** The chaos applied to it, as logged (`none` without). */
  chaos: string;
  events: EventRecord[];
}

/** Characters of a response body the dashboard keeps. */
export const RESPONSE_START_CHARS = 200;
/** Messages kept for the dashboard; the oldest are dropped first. */
export const JOURNAL_MAX_MESSAGES = 500;

/** What the emulator did, message by message, for the dashboard; `onChange` hears each change to a message. */
export class Journal {
  readonly #messages = new Map<string, MessageRecord>();
  readonly #listeners = new Set<(message: MessageRecord) => void>();

  messages(): MessageRecord[] {
    return [...this.#messages.values()];
  }

  get(id: string): MessageRecord | undefined {
    return this.#messages.get(id);
  }

  add(message: MessageRecord): void {
    this.#messages.set(message.id, message);
    if (this.#messages.size > JOURNAL_MAX_MESSAGES) {
      const oldest = this.#messages.keys().next().value;
      if (oldest !== undefined) this.#messages.delete(oldest);
    }
    this.changed(message);
  }

  /** Announces that `message` (already in the journal) changed in place. */
  changed(message: MessageRecord): void {
    for (const listener of this.#listeners) listener(message);
  }

  onChange(listener: (message: MessageRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
