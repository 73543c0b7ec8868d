import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type Lock, lockProblems } from "./lock-problems.mjs";

type Manifest = Record<string, Record<string, string> | string | string[]>;
const root: Manifest = { name: "root", workspaces: ["packages/*"], devDependencies: { typescript: "~5.9.3" } };
const core: Manifest = {
  name: "@x/core",
  version: "1.0.0",
  dependencies: { ms: "^2.1.0" },
  peerDependencies: { ioredis: "^6.0.0" },
};

function lockOf(): Lock {
  return {
    lockfileVersion: 3,
    packages: {
      "": { name: "root", workspaces: ["packages/*"], devDependencies: { typescript: "~5.9.3" } },
      "node_modules/typescript": { version: "5.9.3" },
      "node_modules/@x/core": { resolved: "packages/core", link: true },
      "packages/core": { name: "@x/core", dependencies: { ms: "^2.1.0" }, peerDependencies: { ioredis: "^6.0.0" } },
      "node_modules/ms": { version: "2.1.3" },
      "node_modules/@biomejs/cli-linux-x64": { version: "2.6.8", optional: true },
    },
  };
}
const manifests = (): Record<string, Manifest> => ({
  "": structuredClone(root),
  "packages/core": structuredClone(core),
});

describe("lockProblems", () => {
  it("finds nothing when the lock matches", () => {
    expect(lockProblems(manifests(), lockOf())).toEqual([]);
  });

  it("ignores another platform's optional binary the registry gained after the lock was written", () => {
    const lock = lockOf();
    lock.packages["node_modules/@biomejs/cli-win32-arm64"] = { version: "2.6.8", optional: true, os: ["win32"] };
    expect(lockProblems(manifests(), lock)).toEqual([]);
  });

  it("reports a dependency package.json declares and the lock lacks", () => {
    const declared = manifests();
    declared["packages/core"] = { ...core, dependencies: { ms: "^2.1.0", "left-pad": "^1.3.0" } };
    expect(lockProblems(declared, lockOf())).toEqual([
      "packages/core/package.json: dependencies left-pad@^1.3.0 is not in the lock",
      "packages/core/package.json: left-pad resolves to nothing in the lock",
    ]);
  });

  it("reports an entry the lock declares and package.json no longer does", () => {
    const declared = manifests();
    declared["packages/core"] = { ...core, peerDependencies: {} };
    expect(lockProblems(declared, lockOf())).toEqual([
      "packages/core/package.json: the lock has peerDependencies ioredis, package.json does not",
    ]);
  });

  it("reports a range changed in package.json but not in the lock, and a locked version outside it", () => {
    const declared = manifests();
    declared[""] = { ...root, devDependencies: { typescript: "^6.0.0" } };
    expect(lockProblems(declared, lockOf())).toEqual([
      "package.json: devDependencies typescript is ^6.0.0, the lock has ~5.9.3",
      "package.json: typescript@^6.0.0 resolves to 5.9.3 in the lock",
    ]);
  });

  it("resolves a workspace's nested copy before the hoisted one, and checks npm: aliases by their target", () => {
    const declared = manifests();
    const dependencies = { ms: "^3.0.0", ms2: "npm:ms@^2.0.0" };
    declared["packages/core"] = { ...core, dependencies };
    const lock = lockOf();
    lock.packages["packages/core"] = { ...lock.packages["packages/core"], dependencies };
    lock.packages["packages/core/node_modules/ms"] = { version: "3.0.1" };
    lock.packages["node_modules/ms2"] = { name: "ms", version: "2.1.3" };
    expect(lockProblems(declared, lock)).toEqual([]);
    lock.packages["node_modules/ms2"] = { name: "not-ms", version: "2.1.3" };
    expect(lockProblems(declared, lock)).toEqual(["packages/core/package.json: ms2 resolves to not-ms, not ms"]);
  });

  it("reports a workspace the lock has and the workspaces globs do not, and one the lock lacks", () => {
    const lock = lockOf();
    lock.packages["packages/gone"] = { name: "@x/gone" };
    const declared = { ...manifests(), "packages/new": { name: "@x/new" } };
    expect(lockProblems(declared, lock)).toEqual([
      "packages/gone: the lock has this workspace, package.json's workspaces do not",
      "packages/new/package.json: no entry in the lock",
    ]);
  });

  it("finds the repository's own lock in step with its package.json files", () => {
    const lock = JSON.parse(readFileSync(new URL("../../package-lock.json", import.meta.url), "utf8")) as Lock;
    const rootManifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    const coreManifest = JSON.parse(readFileSync(new URL("../../packages/core/package.json", import.meta.url), "utf8"));
    const problems = lockProblems({ "": rootManifest, "packages/core": coreManifest }, lock);
    expect(problems.filter((line) => !line.endsWith("workspaces do not"))).toEqual([]);
  });
});
