import { readFileSync } from "node:fs";
import * as schemes from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { budgets, END, factoryName, SCHEME_LIMIT, START, sizeTables, withSizeTables } from "./budgets.mjs";

const names = schemes.catalogue().map((scheme) => scheme.name);
const measured = (rows: ReturnType<typeof budgets>) => rows.map((row) => ({ ...row, minified: 4000, gzipped: 2000 }));

describe("npm run size", () => {
  it("budgets every scheme of the catalogue alone, importing the factory named after it", () => {
    const perScheme = budgets(names).filter((row) => "scheme" in row);
    expect(perScheme.map((row) => row.scheme)).toEqual(names);
    for (const row of perScheme) {
      expect(typeof (schemes as Record<string, unknown>)[factoryName(row.scheme as string)]).toBe("function");
      expect(row.code).toBe(`export { ${factoryName(row.scheme as string)} } from "@tidings/core/schemes";`);
      expect(row.limit).toBe(SCHEME_LIMIT);
    }
  });

  it("keeps the core's budgets", () => {
    const limits = Object.fromEntries(budgets([]).map((row) => [row.name, row.limit]));
    expect(limits).toMatchObject({
      "import { verify }": 2048,
      "the whole core (export *)": 14.5 * 1024,
      "every scheme (@tidings/core/schemes, export *)": 27 * 1024,
    });
  });

  it("writes the README's Size tables in place, again and again", () => {
    const readme =
      "# core\n\n## Size\n\nText.\n\n| import | minified | gzipped | budget (gzipped) |\n| --- |\n| old |\n\nAfter.\n";
    const tables = sizeTables(measured(budgets(["stripe", "lemon-squeezy"])));
    const once = withSizeTables(readme, tables);
    expect(once).toContain("Text.\n\n<!--");
    expect(once).toContain("-->\n\nAfter.");
    expect(once).not.toContain("| old |");
    expect(once).toContain('| `lemon-squeezy` | `import { lemonSqueezy } from "@tidings/core/schemes"` |');
    expect(withSizeTables(once, tables)).toBe(once);
  });

  it("the core README has a Size row for every scheme of the catalogue", () => {
    const readme = readFileSync(new URL("../../packages/core/README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf(START), readme.indexOf(END));
    expect(section.length).toBeGreaterThan(0);
    for (const name of names) expect(section).toContain(`| \`${name}\` | \`import { ${factoryName(name)} }`);
  });
});
