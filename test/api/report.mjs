#!/usr/bin/env node
// The API report of every published package (`npm run api`): API Extractor reads each entry point's built
// declarations (dist, as published) and writes what it exports, with every signature, to `packages/<name>/api/`.
// CI runs it as a check: a public surface that changed without its report changing fails, so each change to what
// users import shows in review. After an intended change: `npm run api -- --update`, and commit the reports.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const update = process.argv.includes("--update");
const scratch = mkdtempSync(path.join(tmpdir(), "tidings-api-"));

/** Each export of a package with declarations: its import path, and the ESM declaration file it resolves to. */
function entryPoints(dir) {
  const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  if (manifest.private) return [];
  return Object.entries(manifest.exports ?? {}).flatMap(([subpath, target]) => {
    const types = target?.import?.types;
    return types ? [{ specifier: path.posix.join(manifest.name, subpath), types: path.join(dir, types) }] : [];
  });
}

/** `@tidings/core/adapter` → `core-adapter.api.md`. */
const reportName = (specifier) => `${specifier.replace(/^@tidings\//, "").replaceAll("/", "-")}.api.md`;

const problems = [];
for (const name of readdirSync(path.join(ROOT, "packages")).sort()) {
  const dir = path.join(ROOT, "packages", name);
  for (const { specifier, types } of entryPoints(dir)) {
    if (!existsSync(types)) throw new Error(`${types} is missing: build the packages first (npm run build)`);
    mkdirSync(path.join(dir, "api"), { recursive: true });
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: dir,
        mainEntryPointFilePath: types,
        compiler: { tsconfigFilePath: path.join(dir, "tsconfig.json") },
        apiReport: {
          enabled: true,
          reportFileName: reportName(specifier),
          reportFolder: path.join(dir, "api"),
          reportTempFolder: scratch,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // What the report is for is the surface; TSDoc style and release tags are not checked here.
          extractorMessageReporting: { default: { logLevel: "none" } },
          tsdocMessageReporting: { default: { logLevel: "none" } },
          compilerMessageReporting: { default: { logLevel: "warning" } },
        },
      },
      configObjectFullPath: undefined,
      packageJsonFullPath: path.join(dir, "package.json"),
    });
    const result = Extractor.invoke(config, { localBuild: update, messageCallback: quiet });
    if (!result.succeeded || (result.apiReportChanged && !update))
      problems.push(`${specifier} (${reportName(specifier)})`);
    else console.log(`${update && result.apiReportChanged ? "updated" : "ok"}  ${specifier}`);
  }
}

/** API Extractor prints progress for every entry; keep errors and warnings only. */
function quiet(message) {
  if (message.logLevel !== "error" && message.logLevel !== "warning") message.handled = true;
}

if (problems.length > 0) {
  console.error(`\nThe public API changed without its report: ${problems.join(", ")}.`);
  console.error("Review the difference, then run `npm run api -- --update` and commit packages/*/api/.");
  process.exit(1);
}
