/**
 * The transactions suite on its own: `node --import tsx/esm transactions/main.ts [--quick]` prints its section;
 * `--functions [request|worker]` prints instead where ours' extra instructions go, by function, on one side.
 */
import { PostgresServer } from "../../test/support/postgres-server";
import { printCounted } from "../instructions/print";
import { assertBuiltPackages } from "../lib/built";
import { instructionSettings } from "../lib/options";
import { renderTransactions } from "./report";
import { countRequest, countWorker, runTransactionsSuite } from "./suite";

assertBuiltPackages();
const settings = instructionSettings(process.argv.includes("--quick"));
const at = process.argv.indexOf("--functions");
if (at === -1) {
  const results = await runTransactionsSuite(settings, (line) => console.error(`[bench] ${line}`));
  console.log(renderTransactions(results));
} else {
  const side = process.argv[at + 1] === "worker" ? "worker" : "request";
  const postgres = await PostgresServer.start();
  try {
    const counted =
      side === "worker"
        ? await countWorker(postgres.url, settings, true)
        : await countRequest(postgres.url, settings, true);
    printCounted(`transactions, ${side}`, "delivery", counted);
  } finally {
    await postgres.remove();
  }
}
