#!/usr/bin/env node
// The size budget of @tidings/core (`npm run size`): what a bundler adds to an app that imports it, measured on
// the BUILT package (dist, as published) with esbuild (bundle, minify, tree-shaking, ESM, browser/edge target)
// and gzip level 9. 1 KB = 1024 bytes. Over budget: prints which source modules of core weigh what (the same
// import bundled from packages/core/src, since dist is one file) and exits 1.
// A row per scheme of `catalogue()`: each scheme imported alone, with a budget of its own (budgets.mjs).
// Usage: node test/size/check.mjs [--json] [--write]   (--write: the core README's Size tables from this run)
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { catalogue } from "@tidings/core/schemes";
import { build } from "esbuild";
import { budgets, KB, sizeTables, withSizeTables } from "./budgets.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const README = fileURLToPath(new URL("../../packages/core/README.md", import.meta.url));
const BUDGETS = budgets(catalogue().map((scheme) => scheme.name));

/** `source`: bundle core's TypeScript sources (the workspace's export condition) to see which module weighs what. */
async function measure(code, source = false) {
  const result = await build({
    conditions: source ? ["@tidings/source"] : [],
    stdin: { contents: code, resolveDir: ROOT, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const bytes = result.outputFiles[0].contents;
  return {
    minified: bytes.byteLength,
    gzipped: gzipSync(bytes, { level: 9 }).byteLength,
    metafile: result.metafile,
    text: result.outputFiles[0].text,
  };
}

/** String literals over 40 characters (error messages, mostly) and the gzipped size of the bundle without them. */
function messages(text) {
  const long = (text.match(/"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g) ?? []).filter((literal) => literal.length > 40);
  let without = text;
  for (const literal of long) without = without.replace(literal, '""');
  return {
    count: long.length,
    bytes: long.reduce((sum, literal) => sum + literal.length, 0),
    gzippedWithout: gzipSync(without, { level: 9 }).byteLength,
  };
}

/** Bytes each source module of core contributes to the minified bundle, largest first. */
function weights(metafile) {
  const [output] = Object.values(metafile.outputs);
  return Object.entries(output.inputs)
    .map(([path, { bytesInOutput }]) => ({ path, bytesInOutput }))
    .filter(({ bytesInOutput }) => bytesInOutput > 0)
    .sort((a, b) => b.bytesInOutput - a.bytesInOutput);
}

const rows = [];
for (const budget of BUDGETS) {
  const { minified, gzipped } = await measure(budget.code);
  rows.push({ ...budget, minified, gzipped, ok: budget.limit === undefined || gzipped <= budget.limit });
}

if (process.argv.includes("--json")) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  const kb = (bytes) => `${(bytes / KB).toFixed(2)} KB`;
  console.log("import | minified | gzipped | budget (gzipped) | result");
  for (const row of rows) {
    console.log(
      `${row.name} | ${kb(row.minified)} | ${kb(row.gzipped)} (${row.gzipped} B) | ${row.limit === undefined ? "-" : kb(row.limit)} | ${row.limit === undefined ? "reported" : row.ok ? "ok" : "OVER"}`,
    );
  }
}

const readme = readFileSync(README, "utf8");
const written = withSizeTables(readme, sizeTables(rows));
if (process.argv.includes("--write")) {
  writeFileSync(README, written);
  console.log("\nwrote the Size tables of packages/core/README.md");
} else if (!process.argv.includes("--json") && written !== readme) {
  console.log("\nthe Size tables of packages/core/README.md are not this run's: `npm run size -- --write`");
}

const budgeted = rows.filter((row) => row.limit !== undefined);
const over = budgeted.filter((row) => !row.ok);
for (const row of over) {
  const fromSource = await measure(row.code, true);
  console.error(
    `\n${row.name}: ${row.gzipped} B gzipped, over the ${row.limit} B budget. Bundled from the sources instead ` +
      `(${fromSource.minified} B minified, ${fromSource.gzipped} B gzipped), minified bytes per module:`,
  );
  for (const { path, bytesInOutput } of weights(fromSource.metafile)) {
    console.error(`  ${String(bytesInOutput).padStart(6)}  ${path}`);
  }
  const strings = messages((await measure(row.code)).text);
  console.error(
    `  of which ${strings.count} string literals over 40 characters (error messages): ${strings.bytes} B minified; ` +
      `the bundle without them would gzip to ${strings.gzippedWithout} B`,
  );
}
console.log(`\nsize: ${budgeted.length - over.length} passed, ${over.length} failed`);
process.exitCode = over.length === 0 ? 0 : 1;
