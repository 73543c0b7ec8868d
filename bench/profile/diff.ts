/**
 * Where one route spends more CPU than another, per request, function by function: profile each route into its own
 * directory with `profile:http` (PROFILE_DIR=...), then
 *   npm run profile:diff --workspace @tidings/bench -- /tmp/koa-ideal /tmp/koa-adapter 60000
 * (the last argument: requests each profile served; profile:http sends 3 x 20,000). Whole-process profiles: start-up
 * and warm-up count too, so compare profiles taken the same way, and read the largest rows, not the total.
 */
import { busiestProfile } from "./cpu-profile";

const [baseDirectory, otherDirectory, requestsText] = process.argv.slice(2);
if (baseDirectory === undefined || otherDirectory === undefined) {
  throw new Error("usage: diff.ts <base profile dir> <other profile dir> [requests per profile]");
}
const requests = Number(requestsText ?? 60_000);
const base = busiestProfile(baseDirectory);
const other = busiestProfile(otherDirectory);
const perRequest = (micros: number) => (micros / requests).toFixed(2).padStart(7);
console.log(`busy µs per request: ${perRequest(base.busyMicros)} (base)  ${perRequest(other.busyMicros)} (other)`);
const keys = new Set([...base.micros.keys(), ...other.micros.keys()]);
const rows = [...keys]
  .map((key) => ({ key, delta: (other.micros.get(key) ?? 0) - (base.micros.get(key) ?? 0) }))
  .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta));
for (const { key, delta } of rows.slice(0, Number(process.argv[5] ?? 30))) console.log(`${perRequest(delta)}  ${key}`);
