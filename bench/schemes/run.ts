// The scheme benchmark on its own: `node --import tsx/esm schemes/run.ts [--quick]` from bench/ (needs valgrind).
import { renderSchemes, runSchemesSuite } from "./suite";

const results = await runSchemesSuite({ quick: process.argv.includes("--quick") }, (line) =>
  console.error(`[bench] ${line}`),
);
console.log(renderSchemes(results));
