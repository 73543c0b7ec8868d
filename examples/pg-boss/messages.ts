import type { PgBoss } from "pg-boss";
import { type MessageEvent, MessageLog, type MessageRecord } from "../shared/message-log";

/**
 * The example's own table, in the same database as pg-boss's (a real app has its own schema and migrations). The
 * receiver and the worker start together: `CREATE TABLE IF NOT EXISTS` run at once by two sessions can still collide,
 * so it runs under a transaction-scoped advisory lock (both statements are one implicit transaction).
 */
export async function createMessageTable(boss: PgBoss): Promise<void> {
  await boss.getDb().executeSql(
    `SELECT pg_advisory_xact_lock(hashtext('example_message_events'));
     CREATE TABLE IF NOT EXISTS example_message_events (
       delivery_key text PRIMARY KEY, message_id text NOT NULL, event jsonb NOT NULL,
       received_at timestamptz NOT NULL DEFAULT now())`,
  );
}

/** Stores an event under its delivery key: a job that runs twice (at-least-once) inserts it once. */
export async function saveEvent(boss: PgBoss, event: MessageEvent, deliveryKey: string): Promise<void> {
  await boss
    .getDb()
    .executeSql(
      "INSERT INTO example_message_events (delivery_key, message_id, event) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
      [deliveryKey, event.data.id, JSON.stringify(event)],
    );
}

/** The message's record, by the examples' status rule, from every event stored for it. */
export async function readMessage(boss: PgBoss, messageId: string): Promise<MessageRecord | undefined> {
  const { rows } = await boss
    .getDb()
    .executeSql("SELECT event, received_at FROM example_message_events WHERE message_id = $1 ORDER BY received_at", [
      messageId,
    ]);
  const log = new MessageLog();
  for (const row of rows as { event: MessageEvent; received_at: Date }[]) log.record(row.event, row.received_at);
  return log.get(messageId);
}
