import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type DocExample, docExamples } from "../consumers/doc-examples.mjs";
import { exampleErrors } from "./compile-examples";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FENCE = "```";

function writeTree(root: string, files: Record<string, string>) {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
}

const SOURCE = `import { x } from "./x";

/**
 * Exported.
 *
 * @example
 * ${FENCE}ts
 * import { shown } from "@scope/a";
 * shown();
 * ${FENCE}
 */
export function shown() {}

/**
 * Not exported, one example of two modules and a fragment.
 *
 * @example
 * ${FENCE}ts
 * @Module({})
 * export class AppModule {}
 * ${FENCE}
 *
 * ${FENCE}typescript
 *
 * second();
 * ${FENCE}
 * ${FENCE}ts fragment
 * left();
 * ${FENCE}
 * ${FENCE}sh
 * npm i left
 * ${FENCE}
 * @param text - what it reads
 * ${FENCE}ts
 * afterParam();
 * ${FENCE}
 */
function inner(text: string) {
  return text;
}

class Holder {
  /**
   * A description with a block, not an example:
   * ${FENCE}ts
   * described();
   * ${FENCE}
   * @example
   * ${FENCE}ts
   * indented({
   *   deep: true,
   * });
   * ${FENCE}
   */
  method() {}
}
// @example
// ${FENCE}ts
// lineComment();
// ${FENCE}
const template = \`/** @example
${FENCE}ts
inTemplate();
${FENCE} */\`;
`;

describe("the @example extraction", () => {
  it("takes the TypeScript fences of the @example sections of every doc comment of every published source", () => {
    const root = mkdtempSync(join(tmpdir(), "tidings-doc-examples-"));
    try {
      writeTree(root, {
        "packages/a/package.json": JSON.stringify({ name: "@scope/a" }),
        "packages/a/src/index.ts": SOURCE,
        "packages/a/src/index.test.ts": `/**\n * @example\n * ${FENCE}ts\n * test();\n * ${FENCE}\n */\n`,
        "packages/b/package.json": JSON.stringify({ name: "@scope/b", private: true }),
        "packages/b/src/index.ts": `/**\n * @example\n * ${FENCE}ts\n * hidden();\n * ${FENCE}\n */\n`,
      });
      const blocks = docExamples(root);
      expect(blocks.map(({ source, line, code }) => ({ source, line, code }))).toEqual([
        { source: "packages/a/src/index.ts", line: 7, code: 'import { shown } from "@scope/a";\nshown();\n' },
        { source: "packages/a/src/index.ts", line: 18, code: "@Module({})\nexport class AppModule {}\n" },
        { source: "packages/a/src/index.ts", line: 23, code: "\nsecond();\n" },
        { source: "packages/a/src/index.ts", line: 49, code: "indented({\n  deep: true,\n});\n" },
      ]);
      expect(new Set(blocks.map((block) => block.file)).size).toBe(blocks.length);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the compile check", () => {
  it("reports an example that does not compile at its line in the source", () => {
    const example = (line: number, code: string): DocExample => ({
      source: "packages/core/src/made-up.ts",
      line,
      file: `made_up_line${line}.mts`,
      code,
    });
    const errors = exampleErrors(ROOT, [
      example(10, 'import { sign } from "@tidings/core";\n\nexport const header: string = sign("{}", "whsec_x");\n'),
      example(20, 'import { sign } from "@tidings/core";\n\nexport const header: number = sign("{}", "whsec_x");\n'),
    ]);
    expect(errors).toEqual([expect.stringMatching(/^packages\/core\/src\/made-up\.ts:23: error TS2322: /)]);
  }, 120_000);
});

describe("every @example block of every published package", () => {
  it("compiles against the packages' sources", () => {
    const errors = exampleErrors(ROOT, docExamples(ROOT));
    expect(errors, `@example blocks that do not compile:\n${errors.join("\n")}\n`).toEqual([]);
  }, 300_000);
});
