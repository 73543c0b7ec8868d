// What makes a package-lock.json disagree with the package.json files it was made from. Entries the lock holds
// beyond what the manifests need (another platform's optional binary the registry gained later) are not problems.
import satisfies from "semver/functions/satisfies.js";
import validRange from "semver/ranges/valid.js";

const DECLARED = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"];
const INSTALLED = ["dependencies", "devDependencies", "optionalDependencies"];

/** The lock's `node_modules/<name>` entry that `dir` resolves `name` to, walking up to the root as Node does. */
function resolveEntry(lock, dir, name) {
  for (let at = dir; ; at = at.includes("/node_modules/") ? at.slice(0, at.lastIndexOf("/node_modules/")) : "") {
    const path = at === "" ? `node_modules/${name}` : `${at}/node_modules/${name}`;
    const entry = lock.packages[path];
    if (entry) return entry.link ? { ...lock.packages[entry.resolved], link: true } : entry;
    if (at === "") return undefined;
  }
}

/** The package name and the semver range a declared spec asks for; undefined for git, file and URL specs. */
function wanted(name, spec) {
  const alias = /^npm:((?:@[^/@]+\/)?[^@]+)@(.+)$/.exec(spec);
  if (alias) return { name: alias[1], range: alias[2] };
  return validRange(spec) === null ? undefined : { name, range: spec };
}

function compareDeclared(where, field, manifest = {}, locked = {}) {
  const problems = [];
  for (const [name, spec] of Object.entries(manifest)) {
    if (!(name in locked)) problems.push(`${where}: ${field} ${name}@${spec} is not in the lock`);
    else if (locked[name] !== spec)
      problems.push(`${where}: ${field} ${name} is ${spec}, the lock has ${locked[name]}`);
  }
  for (const name of Object.keys(locked)) {
    if (!(name in manifest)) problems.push(`${where}: the lock has ${field} ${name}, package.json does not`);
  }
  return problems;
}

/**
 * @param {Record<string, object>} manifests package.json contents by workspace path ("" for the root)
 * @param {{ lockfileVersion: number, packages: Record<string, any> }} lock
 * @returns {string[]} one line per disagreement; empty when the lock matches
 */
export function lockProblems(manifests, lock) {
  if (lock.lockfileVersion !== 3) return [`lockfileVersion is ${lock.lockfileVersion}, npm 11 writes 3`];
  const problems = [];
  for (const path of Object.keys(lock.packages)) {
    if (path !== "" && !path.includes("node_modules/") && !(path in manifests)) {
      problems.push(`${path}: the lock has this workspace, package.json's workspaces do not`);
    }
  }
  for (const [dir, manifest] of Object.entries(manifests)) {
    const where = dir === "" ? "package.json" : `${dir}/package.json`;
    const locked = lock.packages[dir];
    if (!locked) {
      problems.push(`${where}: no entry in the lock`);
      continue;
    }
    for (const field of DECLARED) problems.push(...compareDeclared(where, field, manifest[field], locked[field]));
    for (const field of INSTALLED) {
      for (const [name, spec] of Object.entries(manifest[field] ?? {})) {
        const entry = resolveEntry(lock, dir, name);
        if (!entry) {
          if (field !== "optionalDependencies") problems.push(`${where}: ${name} resolves to nothing in the lock`);
          continue;
        }
        const want = wanted(name, spec);
        if (!want || entry.link) continue;
        if (entry.name !== undefined && entry.name !== want.name) {
          problems.push(`${where}: ${name} resolves to ${entry.name}, not ${want.name}`);
        } else if (!satisfies(entry.version, want.range, { includePrerelease: true })) {
          problems.push(`${where}: ${name}@${spec} resolves to ${entry.version} in the lock`);
        }
      }
    }
  }
  return problems;
}
