// What the effects mode finds committed in the app's table (effects.ts writes it): rows per event, and each message's
// status as its last committed row wrote it (with `order`, a message's rows commit one at a time, in order).
import type pg from "pg";

export async function readAppEffects(db: pg.Client) {
  const counted = await db.query<{ event_id: string; rows: number }>(
    "select event_id, count(*)::int as rows from soak_effects group by event_id",
  );
  const last = await db.query<{ message_id: string; status: string }>(
    "select distinct on (message_id) message_id, status from soak_effects order by message_id, id desc",
  );
  return {
    rows: new Map(counted.rows.map((row) => [row.event_id, row.rows])),
    lastStatus: new Map(last.rows.map((row) => [row.message_id, row.status])),
  };
}
