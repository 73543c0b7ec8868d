import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

/** Lines of the .ts files under `dir` (as `cat | wc -l` counts them), node_modules left out. */
function lines(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".ts") && !path.split(/[/\\]/).includes("node_modules"))
    .reduce((total, path) => total + (readFileSync(join(dir, path), "utf8").match(/\n/g)?.length ?? 0), 0);
}

describe("the benchmarks' size", () => {
  it("stays under half the packages' source, so the suites share what they repeat", () => {
    const packages = readdirSync(join(ROOT, "packages")).reduce(
      (total, name) => total + lines(join(ROOT, "packages", name, "src")),
      0,
    );
    const bench = lines(join(ROOT, "bench"));
    expect(bench / packages, `bench/ ${bench} lines, packages/*/src ${packages}`).toBeLessThan(0.5);
  });
});
