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
  const retiring = await rotateSecret(pool, account, secret, retireAt);
  console.log(
    retiring === 0
      ? `${account}: secret added, the only one`
      : `${account}: new secret added; the ${retiring} older one(s) verify until ${retireAt.toISOString()} at the latest`,
  );
} finally {
  await pool.end();
}
