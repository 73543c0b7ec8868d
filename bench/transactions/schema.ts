/**
 * The tables both sides of the transactions suite write: each side its own app table (one row per event) and its
 * own dedup (the hand-written side's table of delivery keys; our side's PostgresStore table, or the worker's inbox).
 */
import type pg from "pg";

export const appTable = (side: string) => `tx_rows_${side}`;
export const dedupTable = (side: string) => `tx_dedup_${side}`;

/** The app's table, and the hand-written side's dedup table: a key and until when it is kept, as the store has. */
export async function createTables(pool: pg.Pool, side: string): Promise<void> {
  await pool.query(`create table if not exists ${appTable(side)} (event_id text not null, status text not null)`);
  await pool.query(
    `create table if not exists ${dedupTable(side)} (key text primary key, expires_at timestamptz not null)`,
  );
}

export const insertRow = (side: string) => `insert into ${appTable(side)} (event_id, status) values ($1, $2)`;
/** Inserts the key unless it is there: no row back means the event was handled before. */
export const insertDedup = (side: string) =>
  `insert into ${dedupTable(side)} (key, expires_at) values ($1, now() + interval '7 days') on conflict do nothing returning key`;
