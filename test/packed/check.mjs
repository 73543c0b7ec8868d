#!/usr/bin/env node
// `npm run check:packed`: what `npm pack` would publish for every public package under packages/ holds the license,
// the README, the command's file and every file the exports map names. Run after a build (dist/ is packed).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Every file path an exports map or a bin field points to, without the leading "./". */
function namedFiles(manifest) {
  const paths = [];
  const walk = (target) => {
    if (typeof target === "string") paths.push(target);
    else if (target && typeof target === "object") for (const value of Object.values(target)) walk(value);
  };
  walk(manifest.exports);
  walk(manifest.bin);
  return paths.map((path) => path.replace(/^\.\//, ""));
}

const problems = [];
const packages = readdirSync(join(ROOT, "packages"))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(ROOT, "packages", dir, "package.json"), "utf8")) }))
  .filter(({ manifest }) => !manifest.private);
const result = spawnSync(
  "npm",
  ["pack", "--dry-run", "--json", "--ignore-scripts", ...packages.flatMap(({ manifest }) => ["-w", manifest.name])],
  { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
);
if (result.status !== 0) throw new Error(`npm pack --dry-run failed:\n${result.stderr}`);
for (const packed of JSON.parse(result.stdout)) {
  const { manifest } = packages.find((entry) => entry.manifest.name === packed.name) ?? {};
  const files = new Set(packed.files.map((file) => file.path));
  const required = ["LICENSE", "README.md", "package.json", ...namedFiles(manifest)];
  const missing = [...new Set(required)].filter((path) => !files.has(path));
  if (missing.length > 0) problems.push(`${packed.name}: the package would be published without ${missing.join(", ")}`);
  if (manifest.license !== "MIT") problems.push(`${packed.name}: license is ${manifest.license}, not MIT`);
  console.log(`${packed.name}: ${packed.entryCount} files, ${missing.length === 0 ? "ok" : "INCOMPLETE"}`);
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
