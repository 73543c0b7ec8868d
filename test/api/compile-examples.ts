// The `@example` blocks compiled in process against the packages' TypeScript sources (the `@tidings/source`
// condition), so no build or pack is needed: a quick form of the consumer check, which compiles them against the
// packed packages (test/consumers). The settings are the consumer fixture's, with bundler resolution, which the
// sources' extensionless imports need.
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { type DocExample, locateInSources } from "../consumers/doc-examples.mjs";

const FIXTURE_TSCONFIG = new URL("../consumers/readme-blocks/tsconfig.json", import.meta.url);

function compilerOptions(root: string): ts.CompilerOptions {
  const { compilerOptions: json } = JSON.parse(readFileSync(FIXTURE_TSCONFIG, "utf8")) as {
    compilerOptions: Record<string, unknown>;
  };
  const { options, errors } = ts.convertCompilerOptionsFromJson(json, root);
  if (errors.length > 0) throw new Error(ts.flattenDiagnosticMessageText(errors[0]?.messageText, "\n"));
  return {
    ...options,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    customConditions: ["@tidings/source"],
    noEmit: true,
  };
}

/**
 * The compiler's errors for the given blocks, each written as a module of its own beside `root/test/api` (so that
 * imports resolve from the workspace's node_modules), located at their source lines; empty when all compile.
 */
export function exampleErrors(root: string, blocks: readonly DocExample[]): string[] {
  const options = compilerOptions(root);
  const dir = path.join(root, "test", "api", "doc-examples");
  const virtual = new Map(blocks.map((block) => [path.join(dir, block.file), block.code]));
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, ...rest) => {
    const code = virtual.get(file);
    return code === undefined
      ? getSourceFile.call(host, file, language, ...rest)
      : ts.createSourceFile(file, code, language);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const file of virtual.keys()) {
    const source = program.getSourceFile(file);
    if (source) diagnostics.push(...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source));
  }
  const formatHost: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (file) => file,
    getCurrentDirectory: () => root,
    getNewLine: () => "\n",
  };
  return diagnostics.map((diagnostic) => locateInSources(ts.formatDiagnostic(diagnostic, formatHost).trim(), blocks));
}
