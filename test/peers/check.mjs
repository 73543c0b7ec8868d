#!/usr/bin/env node
// `node test/peers/check.mjs`: for every peer dependency of every published package, the registry's current
// `latest` satisfies the declared range, or the package's README excludes that major in words. Asks the registry
// npm is configured with, so it checks what a user's `npm i` would install today.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { peerProblems } from "./peer-problems.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const registry = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim().replace(/\/?$/, "/");

async function latestOf(name) {
  const response = await fetch(`${registry}${name.replace("/", "%2F")}`, {
    headers: { accept: "application/vnd.npm.install-v1+json" },
  });
  if (!response.ok) throw new Error(`${registry}${name}: HTTP ${response.status}`);
  return (await response.json())["dist-tags"]?.latest;
}

const packages = readdirSync(join(ROOT, "packages")).map((dir) => {
  const manifest = JSON.parse(readFileSync(join(ROOT, "packages", dir, "package.json"), "utf8"));
  const readme = readFileSync(join(ROOT, "packages", dir, "README.md"), "utf8");
  return { name: manifest.name, private: manifest.private, peerDependencies: manifest.peerDependencies, readme };
});
const published = packages.filter((entry) => !entry.private);
const peers = [...new Set(published.flatMap((entry) => Object.keys(entry.peerDependencies ?? {})))];
const latest = Object.fromEntries(await Promise.all(peers.map(async (peer) => [peer, await latestOf(peer)])));
const problems = peerProblems(published, latest);
for (const peer of peers.sort()) console.log(`${peer}@${latest[peer]}`);
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
console.log(`every peer range of ${published.length} packages admits the registry's latest release`);
