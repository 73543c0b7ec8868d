import { parseArgs } from "node:util";
import { createPool } from "./database";
import { createSecretTable, rotateSecret } from "./secrets";

const USAGE = "usage: rotate-secret <account> <new secret> [--grace=SECONDS (default 86400)]";

const { positionals, values } = parseArgs({ allowPositionals: true, options: { grace: { type: "string" } } });
const [account, secret] = positionals;
const grace = Number(values.grace ?? 86_400);
if (!account || !secret || positionals.length > 2 || !Number.isFinite(grace) || grace < 0) {
  console.error(USAGE);
  process.exit(2);
}

const retireAt = new Date(Date.now() + grace * 1000);
const pool = createPool();
try {
  await createSecretTable(pool);
  await rotateSecret(pool, account, secret, retireAt);
  console.log(`${account}: new secret added; any older one verifies until ${retireAt.toISOString()}`);
} finally {
  await pool.end();
}
