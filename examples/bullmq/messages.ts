import type { Redis } from "ioredis";
import { type MessageEvent, MessageLog, type MessageRecord } from "../shared/message-log";

const key = (messageId: string) => `example:message:${messageId}`;

/**
 * Stores an event under its delivery key: a job that runs twice (at-least-once) writes the same field twice,
 * so the record never holds an event twice.
 */
export async function saveEvent(redis: Redis, event: MessageEvent, deliveryKey: string): Promise<void> {
  await redis.hset(key(event.data.id), deliveryKey, JSON.stringify({ event, at: Date.now() }));
}

/** The message's record, by the examples' status rule, from every event stored for it. */
export async function readMessage(redis: Redis, messageId: string): Promise<MessageRecord | undefined> {
  const stored = Object.values(await redis.hgetall(key(messageId))).map(
    (value) => JSON.parse(value) as { event: MessageEvent; at: number },
  );
  const log = new MessageLog();
  for (const { event, at } of stored.sort((a, b) => a.at - b.at)) log.record(event, new Date(at));
  return log.get(messageId);
}
