import { appendFileSync } from "node:fs";
import type { WorkerContext } from "@tidings/core/dispatch";
import { PostgresStore, pgTransactions } from "@tidings/postgres";
import pg from "pg";

// What the effects fixture workers of both engine packages run. APP_DATABASE_URL: the app's PostgreSQL (store, inbox
// and app table); APP_TABLE: the table each run writes one row per event into; RUN_LOG: a file that gets one JSON
// line per step of a run ({ id, pid, step }); HOLD: "before-commit" stops every run after its write, "after-commit"
// after its transaction committed, before the job completes, so the test can SIGKILL the process there.

type Step = "wrote" | "committed";

const never = new Promise<never>(() => {});

export function effectsWorkerParts(env: NodeJS.ProcessEnv = process.env) {
  const pool = new pg.Pool({ connectionString: env.APP_DATABASE_URL as string, max: 4 });
  const log = (id: unknown, step: Step) =>
    appendFileSync(env.RUN_LOG as string, `${JSON.stringify({ id, pid: process.pid, step })}\n`);
  const plain = pgTransactions(pool);
  const transactions: typeof plain = {
    async run(work) {
      let id: unknown;
      const result = await plain.run((client, statements) =>
        work(client, statements).then((value) => {
          id = current;
          return value;
        }),
      );
      if (id !== undefined) {
        log(id, "committed");
        if (env.HOLD === "after-commit") await never;
      }
      return result;
    },
  };
  let current: unknown;
  const handler = async (event: { id?: unknown }, ctx: WorkerContext & { transaction: pg.PoolClient }) => {
    current = event.id;
    await ctx.transaction.query(`insert into ${env.APP_TABLE} (event_id, pid) values ($1, $2)`, [
      event.id,
      process.pid,
    ]);
    log(event.id, "wrote");
    if (env.HOLD === "before-commit") await never;
  };
  return { store: new PostgresStore({ client: pool }), transactions, handler };
}
