import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { exportsWithoutExample, publishedEntryPoints } from "./examples";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function writeTree(root: string, files: Record<string, string>) {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
}

const manifest = (name: string, exports: Record<string, string>, extra: object = {}) =>
  JSON.stringify({
    name,
    ...extra,
    exports: Object.fromEntries(
      Object.entries(exports).map(([subpath, source]) => [
        subpath,
        { "@tidings/source": source, import: "./dist/x.js" },
      ]),
    ),
  });

describe("the @example scan", () => {
  it("lists each export of each published entry whose declaration, followed through re-exports, has no @example", () => {
    const root = mkdtempSync(join(tmpdir(), "tidings-examples-"));
    try {
      writeTree(root, {
        "packages/a/package.json": manifest("@scope/a", { ".": "./src/index.ts", "./sub": "./src/sub.ts" }),
        "packages/a/src/index.ts": `export { documented, bare } from "./impl";
export * from "./types";
/** Said, not shown. */
export const said = 1;
/**
 * Shown.
 * @example
 * \`\`\`ts
 * shown();
 * \`\`\`
 */
export function shown() {}
`,
        "packages/a/src/impl.ts": `/**
 * @example
 * \`\`\`ts
 * documented();
 * \`\`\`
 */
export function documented() {}
export function bare() {}
`,
        "packages/a/src/types.ts": `/** @example \`const o: Options = {};\` */
export interface Options {}
export type Untold = string;
`,
        "packages/a/src/sub.ts": `export { documented as renamed } from "./impl";
export class Lonely {}
`,
        "packages/b/package.json": manifest("@scope/b", { ".": "./src/index.ts" }, { private: true }),
        "packages/b/src/index.ts": "export const hidden = 1;\n",
      });
      const entries = publishedEntryPoints(root);
      expect(entries.map((entry) => entry.specifier)).toEqual(["@scope/a", "@scope/a/sub"]);
      expect(exportsWithoutExample(entries)).toEqual([
        "@scope/a: Untold",
        "@scope/a: bare",
        "@scope/a: said",
        "@scope/a/sub: Lonely",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("every public export of every published package", () => {
  it("has an @example in its declaration's doc comment", () => {
    const missing = exportsWithoutExample(publishedEntryPoints(ROOT));
    expect(
      missing,
      `Exports without an @example (add one to the declaration's TSDoc):\n${missing.join("\n")}\n`,
    ).toEqual([]);
  }, 120_000);
});
