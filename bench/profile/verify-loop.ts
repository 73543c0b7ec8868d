/**
 * A CPU-profiling target: `verify` in a tight loop at one body size, for `node --cpu-prof`.
 * npm run profile:verify --workspace @tidings/bench -- 4096, then npm run profile:summary --workspace @tidings/bench
 */
import { verify } from "@tidings/core";
import { SECRET, signedDelivery } from "../lib/deliveries";

const size = Number(process.argv[2] ?? 4096);
const seconds = Number(process.argv[3] ?? 5);
const { body, header } = signedDelivery(size, "evt_profile");
const until = performance.now() + seconds * 1000;
let calls = 0;
while (performance.now() < until) {
  for (let i = 0; i < 1000; i++) verify(body, header, SECRET);
  calls += 1000;
}
console.log(`${calls} verify calls at ${size} B: ${((seconds * 1e9) / calls).toFixed(0)} ns each`);
