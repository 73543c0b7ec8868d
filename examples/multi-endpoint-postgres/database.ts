import pg from "pg";

const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** A pool on DATABASE_URL that fails fast while PostgreSQL is away, so a delivery is answered 503 and retried. */
export function createPool(url = process.env.DATABASE_URL || DEFAULT_URL): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 2_000, query_timeout: 2_000 });
  // An idle connection that PostgreSQL drops emits here; without a listener it would end the process.
  pool.on("error", (error) => console.error(`[pg] idle connection lost: ${error.message}`));
  return pool;
}
