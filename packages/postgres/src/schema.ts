/** The SQL names of one store: `<table>_deliveries`, `<table>_positions` and the functions of the ordered steps. */
export interface Names {
  deliveries: string;
  positions: string;
  claimInOrder: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,40}$/;

/** Checked at construction: the names go into SQL text, so only plain lowercase identifiers are taken. */
export function namesOf(table: string, schema: string | undefined): Names {
  if (!IDENTIFIER.test(table))
    throw new TypeError("PostgresStore table must be a lowercase SQL identifier (a-z, 0-9, _)");
  if (schema !== undefined && !IDENTIFIER.test(schema)) {
    throw new TypeError("PostgresStore schema must be a lowercase SQL identifier (a-z, 0-9, _)");
  }
  const qualified = (name: string) => (schema === undefined ? name : `${schema}.${name}`);
  return {
    deliveries: qualified(`${table}_deliveries`),
    positions: qualified(`${table}_positions`),
    claimInOrder: qualified(`${table}_claim_in_order`),
  };
}

/**
 * Run once per store, in one implicit transaction under an advisory lock, so instances starting together do not race
 * to create the same table. Idempotent: `IF NOT EXISTS`, `CREATE OR REPLACE`.
 *
 * The ordered claim is a function so that it is one statement and holds the object's row lock throughout: it upserts
 * the object's row (locking it), then decides done / in-flight / stale / busy / claimed and writes accordingly.
 */
export function schemaSql({ deliveries, positions, claimInOrder }: Names): string {
  return `
SELECT pg_advisory_xact_lock(hashtext('${deliveries}'));
${schemaOf(deliveries)}
CREATE TABLE IF NOT EXISTS ${deliveries} (
  key text PRIMARY KEY,
  token text,
  done boolean NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS ${positions} (
  object text PRIMARY KEY,
  position double precision,
  expires_at timestamptz,
  lease text,
  lease_until timestamptz
);
CREATE OR REPLACE FUNCTION ${claimInOrder}(
  p_key text, p_token text, p_lease_ms double precision, p_object text, p_position double precision, p_ttl_ms double precision
) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  o ${positions}%ROWTYPE;
  d ${deliveries}%ROWTYPE;
BEGIN
  INSERT INTO ${positions} AS p (object) VALUES (p_object)
    ON CONFLICT (object) DO UPDATE SET object = p.object
    RETURNING * INTO o;
  SELECT * INTO d FROM ${deliveries} WHERE key = p_key FOR UPDATE;
  IF FOUND AND d.expires_at > now() THEN
    RETURN CASE WHEN d.done THEN 'done' ELSE 'in-flight' END;
  END IF;
  IF o.position IS NOT NULL AND o.expires_at > now() AND p_position <= o.position THEN
    INSERT INTO ${deliveries} AS x (key, token, done, expires_at)
      VALUES (p_key, NULL, true, now() + p_ttl_ms * interval '1 millisecond')
      ON CONFLICT (key) DO UPDATE SET token = NULL, done = true, expires_at = excluded.expires_at;
    RETURN 'stale';
  END IF;
  IF o.lease IS NOT NULL AND o.lease_until > now() THEN
    RETURN 'busy';
  END IF;
  UPDATE ${positions} SET lease = p_token, lease_until = now() + p_lease_ms * interval '1 millisecond'
    WHERE object = p_object;
  INSERT INTO ${deliveries} AS x (key, token, done, expires_at)
    VALUES (p_key, p_token, false, now() + p_lease_ms * interval '1 millisecond')
    ON CONFLICT (key) DO UPDATE SET token = excluded.token, done = false, expires_at = excluded.expires_at;
  RETURN 'claimed';
END
$fn$;`;
}

function schemaOf(qualified: string): string {
  const dot = qualified.indexOf(".");
  return dot < 0 ? "" : `CREATE SCHEMA IF NOT EXISTS ${qualified.slice(0, dot)};`;
}

const ms = (param: string) => `now() + ${param}::float8 * interval '1 millisecond'`;

/**
 * Locks the key's row and the object's row ($1 key, $2 token, $4 object), found only while the token holds a live
 * lease on both. Taken first, so the writes after it act on both rows or on neither, even as a lease runs out.
 */
function heldInOrder(deliveries: string, positions: string): string {
  return `SELECT d.key FROM ${deliveries} d JOIN ${positions} p ON p.object = $4
  WHERE d.key = $1 AND d.token = $2 AND NOT d.done AND d.expires_at > now() AND p.lease = $2 AND p.lease_until > now()
  FOR UPDATE OF d, p`;
}

/** The statements of each step: one each, acting only while the caller's token holds a live lease on the key. */
export function statements({ deliveries, positions, claimInOrder }: Names) {
  const complete = `UPDATE ${deliveries} SET token = NULL, done = true, expires_at = ${ms("$3")}
WHERE key = $1 AND token = $2 AND NOT done AND expires_at > now()`;
  const completeInOrder = `WITH held AS (
  ${heldInOrder(deliveries, positions)}
), finished AS (
  UPDATE ${deliveries} SET token = NULL, done = true, expires_at = ${ms("$3")}
  WHERE key = $1 AND EXISTS (SELECT 1 FROM held)
  RETURNING key
), moved AS (
  UPDATE ${positions} SET
    position = GREATEST(CASE WHEN expires_at > now() THEN position END, $5),
    expires_at = ${ms("$3")},
    lease = NULL,
    lease_until = NULL
  WHERE object = $4 AND EXISTS (SELECT 1 FROM held)
)
SELECT count(*)::int AS n FROM finished`;
  // The claim writes even when it finds the key live (a no-op update), so the row tells it done from in-flight in
  // the same statement, under the row lock, instead of a read that a concurrent claim could have overtaken.
  return {
    claim: `INSERT INTO ${deliveries} AS d (key, token, done, expires_at) VALUES ($1, $2, false, ${ms("$3")})
ON CONFLICT (key) DO UPDATE SET
  token = CASE WHEN d.expires_at <= now() THEN excluded.token ELSE d.token END,
  done = CASE WHEN d.expires_at <= now() THEN false ELSE d.done END,
  expires_at = CASE WHEN d.expires_at <= now() THEN excluded.expires_at ELSE d.expires_at END
RETURNING token = $2 AS claimed, done`,
    complete,
    release: `DELETE FROM ${deliveries} WHERE key = $1 AND token = $2 AND NOT done AND expires_at > now()`,
    renew: `UPDATE ${deliveries} SET expires_at = ${ms("$3")}
WHERE key = $1 AND token = $2 AND NOT done AND expires_at > now()`,
    renewInOrder: `WITH held AS (
  ${heldInOrder(deliveries, positions)}
), renewed AS (
  UPDATE ${deliveries} SET expires_at = ${ms("$3")} WHERE key = $1 AND EXISTS (SELECT 1 FROM held)
  RETURNING key
), leased AS (
  UPDATE ${positions} SET lease_until = ${ms("$3")} WHERE object = $4 AND EXISTS (SELECT 1 FROM held)
)
SELECT count(*)::int AS n FROM renewed`,
    claimInOrder: `SELECT ${claimInOrder}($1, $2, $3, $4, $5, $6) AS state`,
    completeInOrder,
    ...withinTransaction(complete, completeInOrder, deliveries),
    releaseInOrder: `WITH released AS (
  DELETE FROM ${deliveries} WHERE key = $1 AND token = $2 AND NOT done AND expires_at > now()
  RETURNING key
), freed AS (
  UPDATE ${positions} SET lease = NULL, lease_until = NULL
  WHERE object = $3 AND lease = $2 AND EXISTS (SELECT 1 FROM released)
)
SELECT count(*)::int AS n FROM released`,
    purge: `WITH gone AS (
  DELETE FROM ${deliveries}
  WHERE key IN (SELECT key FROM ${deliveries} WHERE expires_at <= now() LIMIT $1) AND expires_at <= now()
  RETURNING 1
), forgotten AS (
  DELETE FROM ${positions} WHERE object IN (
    SELECT object FROM ${positions}
    WHERE (expires_at IS NULL OR expires_at <= now()) AND (lease_until IS NULL OR lease_until <= now())
    LIMIT $1
  ) AND (expires_at IS NULL OR expires_at <= now()) AND (lease_until IS NULL OR lease_until <= now())
  RETURNING 1
)
SELECT (SELECT count(*) FROM gone)::int + (SELECT count(*) FROM forgotten)::int AS n`,
  };
}

/**
 * The steps that run inside the app's transaction. Timed by `statement_timestamp()`, not `now()`: `now()` is when the
 * transaction began, so a lease that ran out while the handlers wrote would still look live at the mark. The mark
 * locks the key's row until the commit: a claim racing it waits, then finds the key done (or, after a rollback, free).
 */
function withinTransaction(complete: string, completeInOrder: string, deliveries: string) {
  const onStatementClock = (text: string) => text.replaceAll("now()", "statement_timestamp()");
  return {
    completeWithin: onStatementClock(`${complete}\nRETURNING 1 AS n`),
    completeInOrderWithin: onStatementClock(completeInOrder),
    // A Receiver's claim in its transaction: the key done from the start, so the commit needs no second statement.
    // Other transactions claiming the key find the advisory lock taken instead of waiting on the row's unique index;
    // the last select sees only rows committed before it, so a live row it finds is a done key or another's claim.
    claimWithin: `WITH lock AS (
  SELECT pg_try_advisory_xact_lock(hashtext('${deliveries}'), hashtext($1)) AS held
), taken AS (
  INSERT INTO ${deliveries} AS d (key, token, done, expires_at)
  SELECT $1, NULL, true, statement_timestamp() + $2::float8 * interval '1 millisecond' FROM lock WHERE held
  ON CONFLICT (key) DO UPDATE SET token = NULL, done = true, expires_at = excluded.expires_at
  WHERE d.expires_at <= statement_timestamp()
  RETURNING 1
)
SELECT CASE
  WHEN NOT (SELECT held FROM lock) THEN 'in-flight'
  WHEN EXISTS (SELECT 1 FROM taken) THEN 'claimed'
  WHEN (SELECT done FROM ${deliveries} WHERE key = $1 AND expires_at > statement_timestamp()) THEN 'done'
  ELSE 'in-flight'
END AS state`,
    // A worker's inbox row: the key done from the start of the transaction, unless a live row has it. A second run of
    // the job inserting it at the same time waits on the unique index for this one to commit or roll back.
    enterWithin: `INSERT INTO ${deliveries} AS d (key, token, done, expires_at)
VALUES ($1, NULL, true, statement_timestamp() + $2::float8 * interval '1 millisecond')
ON CONFLICT (key) DO UPDATE SET token = NULL, done = true, expires_at = excluded.expires_at
WHERE d.expires_at <= statement_timestamp()
RETURNING 1 AS n`,
  };
}
