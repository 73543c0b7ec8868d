// Which public exports have no `@example`: for each published package and each entry point in its `exports`, the
// TypeScript compiler lists what the entry exports, follows each name through its re-exports to the declaration, and
// reads that declaration's JSDoc. Read from the `@tidings/source` condition, so no build is needed.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export interface EntryPoint {
  /** What a user imports: `@tidings/core`, `@tidings/core/adapter`. */
  readonly specifier: string;
  /** The entry's TypeScript source. */
  readonly file: string;
}

/** Every entry point of every package under `<root>/packages` that is published (not `private`). */
export function publishedEntryPoints(root: string): EntryPoint[] {
  const packages = path.join(root, "packages");
  return readdirSync(packages)
    .sort()
    .flatMap((name) => {
      const manifestPath = path.join(packages, name, "package.json");
      if (!existsSync(manifestPath)) return [];
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
        name: string;
        private?: boolean;
        exports?: Record<string, unknown>;
      };
      if (manifest.private) return [];
      return Object.entries(manifest.exports ?? {}).flatMap(([subpath, target]) => {
        const source = (target as Record<string, unknown> | null)?.["@tidings/source"];
        if (typeof source !== "string") return [];
        return [{ specifier: path.posix.join(manifest.name, subpath), file: path.join(packages, name, source) }];
      });
    });
}

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  customConditions: ["@tidings/source"],
  experimentalDecorators: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
};

const hasExample = (declaration: ts.Declaration) =>
  ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === "example");

/**
 * `specifier: Name` for every export of the given entry points whose declaration carries no `@example` tag, in the
 * entries' order and by name within each.
 */
export function exportsWithoutExample(entries: readonly EntryPoint[]): string[] {
  const program = ts.createProgram(
    entries.map((entry) => entry.file),
    OPTIONS,
  );
  const checker = program.getTypeChecker();
  const missing: string[] = [];
  for (const { specifier, file } of entries) {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) {
      missing.push(`${specifier}: (entry ${file} not found)`);
      continue;
    }
    const names = checker
      .getExportsOfModule(module)
      .filter((exported) => {
        const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        return !(target.getDeclarations() ?? []).some(hasExample);
      })
      .map((exported) => exported.name)
      .sort();
    missing.push(...names.map((name) => `${specifier}: ${name}`));
  }
  return missing;
}
