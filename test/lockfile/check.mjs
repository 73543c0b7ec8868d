#!/usr/bin/env node
// `node test/lockfile/check.mjs [lock]`: the lock file (default ./package-lock.json) matches every package.json of
// the workspace: the same declared ranges, and each declared dependency resolvable from the lock at a version its
// range admits. CI runs it on the committed lock, copied aside before `npm install` may add to it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { lockProblems } from "./lock-problems.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));

function workspaceDirs(patterns) {
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(ROOT, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, parent, entry.name, "package.json")))
      .map((entry) => `${parent}/${entry.name}`);
  });
}

const root = readJson(join(ROOT, "package.json"));
const manifests = { "": root };
for (const dir of workspaceDirs(root.workspaces)) manifests[dir] = readJson(join(ROOT, dir, "package.json"));
const lockPath = process.argv[2] ?? join(ROOT, "package-lock.json");
const problems = lockProblems(manifests, readJson(lockPath));
if (problems.length > 0) {
  console.error(`${lockPath} does not match package.json (refresh it as CONTRIBUTING.md says):`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`${lockPath} matches the ${Object.keys(manifests).length} package.json files of the workspace`);
