// The effects mode's handler, run by the request path's receivers and by the workers: one row per event in the app's
// table, written in the delivery's transaction; a follow-up message through the emulator for every `message.failed`,
// under the run's idempotency key; and, for one event in `AIM_EVERY`, a SIGKILL aimed at its first run — after its
// write and before its commit, or after its commit and before its delivery is answered (its job completed).
import { createHash } from "node:crypto";
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import type { MessageEvent } from "@tidings/core";
import { PostgresStore, pgTransactions } from "@tidings/postgres";
import pg from "pg";

export const CREATE_APP_TABLE =
  "create table if not exists soak_effects (id bigserial primary key, event_id text not null, message_id text not null, status text not null)";

/** The number follow-ups go to: one the emulator delivers (no follow-up of a follow-up). */
export const FOLLOW_UP_TO = "+15550000000";

type Aim = "before-commit" | "after-commit";

export interface EffectsEnv {
  DATABASE_URL: string;
  FOLLOW_UP_URL: string;
  EFFECTS_DIR: string;
  AIM_EVERY: string;
}

interface Context {
  transaction: pg.PoolClient;
  idempotencyKey(label?: string): string;
}

const never = new Promise<never>(() => {});

/** Asks the harness for a SIGKILL of this process (`Cast`), and waits for it. */
function awaitKill(): Promise<never> {
  console.log(JSON.stringify({ kill: process.pid }));
  return never;
}

/**
 * Where an event's run is killed: one event in `every` (by a hash of its id) is aimed at, half before the commit and
 * half after it, the first time a run of it gets there (a marker file, so that its rerun goes through).
 */
function aimOf(dir: string, eventId: string, every: number): Aim | undefined {
  const hash = createHash("sha1").update(eventId).digest().readUInt32BE(0);
  if (hash % every !== 0) return undefined;
  try {
    closeSync(openSync(join(dir, `aimed-${eventId}`), "wx"));
  } catch {
    return undefined;
  }
  return Math.floor(hash / every) % 2 === 0 ? "before-commit" : "after-commit";
}

async function followUp(url: string, eventId: string, key: string): Promise<void> {
  const response = await fetch(`${url}/v3/messages`, {
    method: "POST",
    headers: { authorization: "Bearer sk_test_soak", "idempotency-key": key },
    body: new URLSearchParams({ channel: "sms", to: FOLLOW_UP_TO, body: `follow-up ${eventId}` }),
  });
  await response.arrayBuffer();
  if (response.status !== 202) throw new Error(`the follow-up of ${eventId} was answered ${response.status}`);
}

/** The store, the transactions and the handler of a process in effects mode; `log` records each run as it happens. */
export function effectsParts(env: EffectsEnv, log: (line: string) => void) {
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 8, query_timeout: 2000 });
  pool.on("error", () => {});
  const plain = pgTransactions(pool);
  // Transactions whose run is killed once committed: the handler marks its transaction's client.
  const killAfterCommit = new WeakSet<pg.PoolClient>();
  const transactions: typeof plain = {
    async run(work) {
      let aimed = false;
      const result = await plain.run(async (client, statements) => {
        try {
          return await work(client, statements);
        } finally {
          aimed = killAfterCommit.delete(client);
        }
      });
      if (aimed) await awaitKill();
      return result;
    },
  };
  const every = Number(env.AIM_EVERY);
  // Registered with onAny on a Receiver or a worker given `transactions`: its context carries both.
  async function handler(received: unknown, context: object): Promise<void> {
    const event = received as MessageEvent<string, string>;
    const ctx = context as Context;
    const id = String(event.id);
    await ctx.transaction.query("insert into soak_effects (event_id, message_id, status) values ($1, $2, $3)", [
      id,
      event.data.id,
      event.data.status,
    ]);
    if (event.type === "message.failed") await followUp(env.FOLLOW_UP_URL, id, ctx.idempotencyKey("follow-up"));
    log(`ran ${id} ${event.data.id} ${event.data.status}`);
    const aim = aimOf(env.EFFECTS_DIR, id, every);
    if (aim === "before-commit") await awaitKill();
    if (aim === "after-commit") killAfterCommit.add(ctx.transaction);
  }
  return { store: new PostgresStore({ client: pool }), transactions, handler };
}
