/** The transactions suite on its own: `node --import tsx/esm transactions/main.ts [--quick]` prints its section. */
import { assertBuiltPackages } from "../lib/built";
import { instructionSettings } from "../lib/options";
import { renderTransactions } from "./report";
import { runTransactionsSuite } from "./suite";

assertBuiltPackages();
const results = await runTransactionsSuite(instructionSettings(process.argv.includes("--quick")), (line) =>
  console.error(`[bench] ${line}`),
);
console.log(renderTransactions(results));
