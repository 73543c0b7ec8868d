/**
 * Self time per function from the busiest `.cpuprofile` in a directory: where the time goes.
 *   npm run profile:summary --workspace @tidings/bench   (= node --import tsx/esm profile/summarize.ts .profiles)
 */
import { profileSelfTimes } from "./cpu-profile";

const { name, micros, busyMicros } = profileSelfTimes(process.argv[2] ?? ".profiles");
console.log(`${name}: ${(busyMicros / 1000).toFixed(0)} ms busy (idle excluded)`);
for (const [key, spent] of [...micros].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 30))) {
  console.log(`${((100 * spent) / busyMicros).toFixed(1).padStart(5)}%  ${key}`);
}
