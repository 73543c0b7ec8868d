/**
 * CPU time of one HMAC-SHA256 over a 2 KiB body with the key handed to `createHmac` as a string, a Buffer and a
 * KeyObject, on each Node the project tests (20 here, 22 and 24 from the runtime matrix), to decide how core holds
 * its keys: npm run profile:hmac-keys --workspace @tidings/bench
 */
import { execFileSync } from "node:child_process";
import { ensureNodeBinaries, nodeBinary } from "../../test/runtimes/lib/node-binaries.mjs";

const CALLS = 100_000;

// Runs in each Node as a plain script: warm-up, then the CPU time per call, per key form, in rotating rounds.
const MEASURE = `
const crypto = require("node:crypto");
const body = Buffer.alloc(2048, 97);
const secret = "whsec_" + "k".repeat(32);
const keys = { string: secret, Buffer: Buffer.from(secret), KeyObject: crypto.createSecretKey(Buffer.from(secret)) };
const hmac = (key) => crypto.createHmac("sha256", key).update("1700000000.").update(body).digest();
const results = {};
for (let round = 0; round < 3; round++) {
  for (const [form, key] of Object.entries(keys)) {
    for (let i = 0; i < ${CALLS / 5}; i++) hmac(key);
    const start = process.cpuUsage();
    for (let i = 0; i < ${CALLS}; i++) hmac(key);
    const used = process.cpuUsage(start);
    (results[form] ??= []).push((used.user + used.system) / ${CALLS});
  }
}
console.log(JSON.stringify(results));
`;

ensureNodeBinaries();
const binaries = [process.execPath, nodeBinary("node22"), nodeBinary("node24")];
console.log("µs of CPU per 2 KiB HMAC-SHA256, min–max of 3 rounds of 100,000 calls");
for (const binary of binaries) {
  const version = execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();
  const results = JSON.parse(execFileSync(binary, ["-e", MEASURE], { encoding: "utf8" })) as Record<string, number[]>;
  const cells = Object.entries(results).map(
    ([form, micros]) => `${form} ${Math.min(...micros).toFixed(2)}–${Math.max(...micros).toFixed(2)}`,
  );
  console.log(`${version}: ${cells.join(", ")}`);
}
