import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { unassertedTests } from "./assertions";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("the assertion scan", () => {
  it("finds a test that reaches no assertion, and follows helpers in its module and relative imports", () => {
    const dir = mkdtempSync(join(tmpdir(), "tidings-hygiene-"));
    try {
      mkdirSync(join(dir, "support"));
      writeFileSync(
        join(dir, "support", "check.ts"),
        "export function checkAll(values: number[]) { for (const v of values) expect(v).toBe(1); }\n",
      );
      writeFileSync(
        join(dir, "sample.test.ts"),
        `import { checkAll } from "./support/check";
const local = () => assert.ok(true);
it("asserts", () => { expect(1).toBe(1); });
it("asserts in a local helper", () => local());
it("asserts in an imported helper", async () => checkAll([1]));
it.each([1])("asserts in a table", (n) => { expect(n).toBe(1); });
it("expects a type error", () => {
  // @ts-expect-error
  const n: number = "x";
});
it("runs but checks nothing", async () => { await Promise.resolve(1); });
test.skip("skipped, and checks nothing", () => {});
it.skipIf(true)("conditional, and checks nothing", () => { local; });
`,
      );
      expect(unassertedTests([dir], dir)).toEqual([
        { file: "sample.test.ts", line: 11, name: '"runs but checks nothing"' },
        { file: "sample.test.ts", line: 12, name: '"skipped, and checks nothing"' },
        { file: "sample.test.ts", line: 13, name: '"conditional, and checks nothing"' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("every test in the repository", () => {
  it("reaches an assertion (expect, assert, expectTypeOf or @ts-expect-error)", () => {
    const packages = readdirSync(join(ROOT, "packages")).map((name) => join(ROOT, "packages", name, "test"));
    expect(unassertedTests([...packages, join(ROOT, "test")], ROOT)).toEqual([]);
  }, 120_000);
});
