/**
 * Where one route spends more CPU than another, per request, function by function. Profile both routes in one
 * process, alternating (`profile:http -- koa ideal,adapter`), then
 *   npm run profile:diff --workspace @tidings/bench -- .profiles ideal adapter
 * Sampling is coarse (about one sample per ms): read the largest rows, not the small ones.
 */
import { routeSelfTimes, type SelfTimes } from "./cpu-profile";

const [directory = ".profiles", baseRoute = "ideal", otherRoute = "adapter", rows = "30"] = process.argv.slice(2);
const base = routeSelfTimes(directory, baseRoute);
const other = routeSelfTimes(directory, otherRoute);
const perRequest = (times: SelfTimes, micros: number) => micros / (times.requests ?? 1);
const format = (micros: number) => micros.toFixed(2).padStart(7);
console.log(
  `busy µs per request: ${format(perRequest(base, base.busyMicros))} (${baseRoute})  ${format(perRequest(other, other.busyMicros))} (${otherRoute})`,
);
const keys = new Set([...base.micros.keys(), ...other.micros.keys()]);
const deltas = [...keys]
  .map((key) => ({
    key,
    delta: perRequest(other, other.micros.get(key) ?? 0) - perRequest(base, base.micros.get(key) ?? 0),
  }))
  .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta));
for (const { key, delta } of deltas.slice(0, Number(rows))) console.log(`${format(delta)}  ${key}`);
