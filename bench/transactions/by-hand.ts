/**
 * What a careful hand-written transactional handler does, for the suite's base sides: in one transaction on a client
 * of the pool, insert the delivery's dedup row (none inserted: handled before, nothing more to do), write the app's
 * row, commit; roll back on any error.
 */
import type pg from "pg";
import { insertDedup, insertRow } from "./schema";

export interface ParsedEvent {
  id: string;
  data: { status: string };
}

/** True if the event was written now, false if its dedup row was there already. */
export async function writeOnceByHand(pool: pg.Pool, side: string, event: ParsedEvent): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const inserted = await client.query(insertDedup(side), [`event:${event.id}`]);
    if (inserted.rowCount === 0) {
      await client.query("ROLLBACK");
      return false;
    }
    await client.query(insertRow(side), [event.id, event.data.status]);
    await client.query("COMMIT");
    return true;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
