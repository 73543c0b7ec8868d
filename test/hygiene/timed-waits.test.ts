import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TEST = join(ROOT, "test");

/** A wait on a length of time, or a poll on a fixed beat: a call, not a method of some object (`clock.setTimeout`). */
const TIMED =
  /(?<![.\w])(?:setTimeout|setInterval|sleep|pause)\s*\(|expect\s*\.\s*poll\b|\bvi\.waitFor\b|timers\/promises|\beveryMs\b/;

// The helper and its test; the simulator, on its own virtual clock; the runtime matrix, which runs outside vitest.
const NOT_SCANNED = [
  "test/support/wait.ts",
  "test/support/wait.test.ts",
  "test/hygiene/timed-waits.test.ts",
  "test/simulation",
  "test/runtimes",
];

/** The test sources git tracks (built apps and other generated files left out), minus NOT_SCANNED. */
function sources(): string[] {
  const tracked = execFileSync("git", ["ls-files", "-z", "--", "test", "packages/*/test/*"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return tracked
    .split("\0")
    .filter((name) => /\.(?:ts|tsx|mts|mjs|js)$/.test(name))
    .filter((name) => !NOT_SCANNED.some((skipped) => name === skipped || name.startsWith(`${skipped}/`)));
}

/** The files test/README.md lists as still waiting on time, from the first column of its table, rooted at ROOT. */
function listed(): string[] {
  const readme = readFileSync(join(TEST, "README.md"), "utf8");
  const table = readme.slice(readme.indexOf("### Where a test still waits on time"));
  return [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => relative(ROOT, join(TEST, match[1] as string)));
}

describe("timed waits", () => {
  const timed = sources().filter((file) => TIMED.test(readFileSync(join(ROOT, file), "utf8")));

  it("are only where test/README.md lists them", () => {
    expect(timed.filter((file) => !listed().includes(file))).toEqual([]);
  });

  it("listed in test/README.md are still there (a row for a converted file is removed)", () => {
    expect(listed().filter((file) => !timed.includes(file))).toEqual([]);
  });
});
