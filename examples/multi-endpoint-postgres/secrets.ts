import type { ExpiringSecret } from "@tidings/core";
import type { Pool } from "pg";

/** The example's table: one row per secret of an account's endpoint; `not_after` retires one during a rotation. */
export async function createSecretTable(pool: Pool): Promise<void> {
  await pool.query(
    `CREATE TABLE IF NOT EXISTS webhook_secrets (
       account text NOT NULL, secret text NOT NULL, not_after timestamptz,
       PRIMARY KEY (account, secret))`,
  );
}

// A named query: pg prepares it once per connection, then only binds the account on each delivery.
const SECRETS_OF = {
  name: "webhook-secrets-of-account",
  text: "SELECT secret, not_after FROM webhook_secrets WHERE account = $1 ORDER BY not_after DESC NULLS FIRST",
};

/**
 * The account's secrets, current one first, each with its deadline; empty for an account with none. Rows past their
 * `not_after` are returned too: the Receiver leaves them out by its own clock, and tells `onError` how many expired.
 */
export async function secretsOf(pool: Pool, account: string): Promise<ExpiringSecret[]> {
  const { rows } = await pool.query<{ secret: string; not_after: Date | null }>({ ...SECRETS_OF, values: [account] });
  return rows.map((row) => ({ value: row.secret, notAfter: row.not_after ?? undefined }));
}

/**
 * Adds `secret` to the account and gives each of its other secrets the deadline `retireAt` (unless one retires
 * sooner), in one transaction; secrets already past their deadline are deleted. With no secret yet, it only adds.
 * Resolves to how many other secrets still verify, until their deadline.
 */
export async function rotateSecret(pool: Pool, account: string, secret: string, retireAt: Date): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("DELETE FROM webhook_secrets WHERE account = $1 AND not_after <= now()", [account]);
    await client.query(
      `UPDATE webhook_secrets SET not_after = $2
       WHERE account = $1 AND secret <> $3 AND (not_after IS NULL OR not_after > $2)`,
      [account, retireAt, secret],
    );
    const { rowCount: retiring } = await client.query(
      "SELECT 1 FROM webhook_secrets WHERE account = $1 AND secret <> $2",
      [account, secret],
    );
    await client.query(
      `INSERT INTO webhook_secrets (account, secret) VALUES ($1, $2)
       ON CONFLICT (account, secret) DO UPDATE SET not_after = NULL`,
      [account, secret],
    );
    await client.query("COMMIT");
    client.release();
    return retiring ?? 0;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    // A connection in an unknown state is closed rather than handed to the next query.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}
