import { PgBoss } from "pg-boss";
import { createMessageTable } from "./messages";

/** A started PgBoss on DATABASE_URL, and the example's table. */
export async function startBoss(): Promise<PgBoss> {
  const boss = new PgBoss(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  boss.on("error", (error) => console.error(`[pg-boss] ${error.message}`));
  await boss.start();
  await createMessageTable(boss);
  return boss;
}
