/** The order suite on its own: `node --import tsx/esm order/main.ts [--quick]` prints its section of the report. */
import { assertBuiltPackages } from "../lib/built";
import { instructionSettings } from "../lib/options";
import { renderOrder } from "./report";
import { runOrderSuite } from "./suite";

assertBuiltPackages();
const results = await runOrderSuite(instructionSettings(process.argv.includes("--quick")), (line) =>
  console.error(`[bench] ${line}`),
);
console.log(renderOrder(results));
