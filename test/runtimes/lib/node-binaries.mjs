// The Node 22, 24 and 26 binaries of node-versions/ (see ../README.md): where they are, and installing them on first use.
// Shared by run.mjs and by suites that must run on Node ≥ 22 (pg-boss), which can run at the same time under turbo.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const NODE_VERSIONS = fileURLToPath(new URL("../node-versions/", import.meta.url));
export const NODE_ALIASES = ["node22", "node24", "node26"];

function cleanNpmEnv() {
  const keep = new Set(["npm_config_registry", "npm_config_cache", "npm_config_userconfig", "npm_config_globalconfig"]);
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || keep.has(key)));
}

export function nodeBinary(alias) {
  return join(NODE_VERSIONS, "node_modules", alias, "bin", "node");
}

function versionOf(binary) {
  if (!existsSync(binary)) return undefined;
  return spawnSync(binary, ["-v"], { encoding: "utf8" }).stdout.trim();
}

function installed(wanted) {
  return wanted.every(([alias, version]) => versionOf(nodeBinary(alias)) === version);
}

/** One installer at a time: a directory created atomically is the lock; the others wait for it to go. */
function withInstallLock(install) {
  const lock = join(NODE_VERSIONS, ".installing");
  for (let waited = 0; ; waited += 500) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== "EEXIST" || waited > 300_000) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    install();
  } finally {
    rmdirSync(lock);
  }
}

/** Installs node-versions/ (its own lock file) unless the binaries it pins are there already. */
export function ensureNodeBinaries() {
  const lock = JSON.parse(readFileSync(join(NODE_VERSIONS, "package-lock.json"), "utf8"));
  const wanted = NODE_ALIASES.map((alias) => [alias, `v${lock.packages[`node_modules/${alias}`].version}`]);
  if (installed(wanted)) return;
  withInstallLock(() => {
    if (installed(wanted)) return;
    console.log("installing the Node binaries pinned in test/runtimes/node-versions/package-lock.json ...");
    const install = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], {
      cwd: NODE_VERSIONS,
      env: cleanNpmEnv(),
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (install.status !== 0) throw new Error(`npm ci in ${NODE_VERSIONS} failed (${install.status})`);
  });
  for (const [alias, version] of wanted) {
    const found = versionOf(nodeBinary(alias));
    if (found !== version) throw new Error(`${nodeBinary(alias)} is ${found ?? "missing"}, want ${version}`);
  }
}
