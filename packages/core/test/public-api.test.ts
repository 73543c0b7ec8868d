import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** The names an entry point exports, types included, as TypeScript resolves them. */
function exportedNames(entry: string): string[] {
  const file = fileURLToPath(new URL(`../src/entries/${entry}.ts`, import.meta.url));
  const program = ts.createProgram([file], { strict: true, noEmit: true });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file) as ts.SourceFile) as ts.Symbol;
  return checker.getExportsOfModule(module).map((symbol) => symbol.name);
}

describe("the main entry", () => {
  it("holds what an app uses and no more: at most 40 names", () => {
    const names = exportedNames("index");
    expect(names.length).toBeGreaterThan(30);
    expect(names.length).toBeLessThanOrEqual(40);
  });

  it("has one error-code type, one listener type and one defaults object", () => {
    const names = exportedNames("index");
    expect(names.filter((name) => /Code$/.test(name))).toEqual(["ErrorCode"]);
    expect(names.filter((name) => /Listener$/.test(name)).sort()).toEqual(["ErrorListener", "OutcomeListener"]);
    expect(names.filter((name) => name.startsWith("DEFAULT"))).toEqual(["DEFAULTS"]);
  });
});
