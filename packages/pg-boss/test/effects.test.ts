import { fileURLToPath } from "node:url";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll } from "vitest";
import { PostgresServer } from "../../../test/support/postgres-server";
import { describeEffects } from "../../../test/support/queue-effects-suite";
import { enqueueTo, jobIdFor } from "../src";

let postgres: PostgresServer;
let boss: PgBoss;
beforeAll(async () => {
  postgres = await PostgresServer.start();
  boss = new PgBoss({ connectionString: postgres.url, supervise: false, schedule: false });
  boss.on("error", () => {});
  await boss.start();
});
afterAll(async () => {
  await boss?.stop({ graceful: false });
  await postgres?.remove();
});

describeEffects({
  name: "pg-boss",
  workerScript: fileURLToPath(new URL("fixtures/effects-worker.ts", import.meta.url)),
  env: () => ({ POSTGRES_URL: postgres.url }),
  appDatabaseUrl: () => postgres.url,
  // Jobs expire after 2 s, so a killed worker's job runs again soon.
  enqueuer: (queue) => enqueueTo({ boss, queue }, { retryDelaySeconds: 0, pgBoss: { expireInSeconds: 2 } }),
  async completed(queue, deliveryKey) {
    return (await boss.getJobById(queue, jobIdFor(deliveryKey)))?.state === "completed";
  },
});
