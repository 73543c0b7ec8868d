import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** A test whose body reaches no assertion. */
export interface Unasserted {
  file: string;
  line: number;
  name: string;
}

const TEST_NAMES = new Set(["it", "test"]);
// Modifiers that still take a body: `it.skip(name, fn)`, `it.each(table)(name, fn)`, `it.skipIf(cond)(name, fn)`.
const MODIFIERS = new Set(["skip", "only", "concurrent", "sequential", "fails", "each", "for", "skipIf", "runIf"]);
// `expect`, `expectTypeOf`, `assert`, `assertType`, `fc.assert`: every way the suites assert at run time.
const ASSERTS = /^(expect|assert)/;
// A type test's assertion: the type check fails if the error it expects goes away.
const EXPECTS_TYPE_ERROR = "@ts-expect-error";

/** Every test file and suite module (a `.ts` that calls `it`/`test`) under `roots`, node_modules left out. */
export function testModules(roots: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) found.push(path);
    }
  };
  for (const root of roots) if (existsSync(root)) walk(root);
  return found;
}

/** Whether `call` declares a test (`it(…)`, `test.skip(…)`, `it.each(…)(…)`), and so its last argument is the body. */
function isTestCall(call: ts.CallExpression): boolean {
  let callee: ts.Expression = call.expression;
  if (ts.isCallExpression(callee)) callee = callee.expression; // it.each(table)(…)
  while (ts.isPropertyAccessExpression(callee)) {
    if (!MODIFIERS.has(callee.name.text)) return false;
    callee = callee.expression;
  }
  return ts.isIdentifier(callee) && TEST_NAMES.has(callee.text);
}

/** Reads modules once each, and finds the functions a body calls, in its own module or a relative import. */
class Modules {
  readonly #parsed = new Map<string, ts.SourceFile>();

  source(file: string): ts.SourceFile {
    let source = this.#parsed.get(file);
    if (!source) {
      source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
      this.#parsed.set(file, source);
    }
    return source;
  }

  /** The body of the function `name` declared at the top of `file`, or imported into it from a relative module. */
  functionNamed(file: string, name: string): { file: string; body: ts.Node } | undefined {
    const source = this.source(file);
    for (const statement of source.statements) {
      if (ts.isFunctionDeclaration(statement) && statement.name?.text === name && statement.body)
        return { file, body: statement.body };
      if (ts.isClassDeclaration(statement) && statement.name?.text === name) return { file, body: statement };
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name) && declaration.name.text === name && declaration.initializer)
            return { file, body: declaration.initializer };
        }
      }
      if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
        const bindings = statement.importClause?.namedBindings;
        if (!bindings || !ts.isNamedImports(bindings)) continue;
        const imported = bindings.elements.find((element) => element.name.text === name);
        const target = imported && this.#resolve(file, statement.moduleSpecifier.text);
        if (target) return this.functionNamed(target, (imported.propertyName ?? imported.name).text);
      }
    }
    return undefined;
  }

  #resolve(from: string, specifier: string): string | undefined {
    if (!specifier.startsWith(".")) return undefined;
    const base = resolve(dirname(from), specifier.replace(/\.(m?js|ts)$/, ""));
    return [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((path) => existsSync(path));
  }
}

/** Whether `node` reaches an assertion, directly or through the functions it calls (followed across relative imports). */
function asserts(modules: Modules, file: string, node: ts.Node, visited: Set<ts.Node>): boolean {
  if (visited.has(node)) return false;
  visited.add(node);
  if (node.getText().includes(EXPECTS_TYPE_ERROR)) return true;
  let found = false;
  const visit = (child: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(child) && ASSERTS.test(child.text)) {
      found = true;
      return;
    }
    if (ts.isCallExpression(child) || ts.isNewExpression(child)) {
      const callee = child.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)
          ? callee.expression.text // a helper object's method: `scenario.run()` follows `scenario`
          : undefined;
      const target = name === undefined ? undefined : modules.functionNamed(file, name);
      if (target && asserts(modules, target.file, target.body, visited)) {
        found = true;
        return;
      }
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

/** The tests under `roots` whose bodies reach no `expect`/`assert`, in their own code or the helpers they call. */
export function unassertedTests(roots: readonly string[], base: string): Unasserted[] {
  const modules = new Modules();
  const found: Unasserted[] = [];
  for (const file of testModules(roots)) {
    if (!existsSync(file)) continue; // removed since the walk
    const source = modules.source(file);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && isTestCall(node)) {
        const body = node.arguments[node.arguments.length - 1];
        if (body && (ts.isArrowFunction(body) || ts.isFunctionExpression(body))) {
          if (!asserts(modules, file, body, new Set())) {
            const name = node.arguments[0];
            found.push({
              file: relative(base, file),
              line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
              name: name && (ts.isStringLiteralLike(name) || ts.isTemplateExpression(name)) ? name.getText() : "?",
            });
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
