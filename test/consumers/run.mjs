#!/usr/bin/env node
// Consumer fixtures (`npm run test:consumers`): the packages as npm publishes them (`npm pack`), installed into a
// project outside the repository, type-checked by tsc and run by node. See README.md beside this file.
// Every TypeScript block of every README, and of every `@example` in the packages' sources, is type-checked there too,
// and everything under TypeScript 5.9 (the repository's) and 7 (what `npm i typescript` installs).
// Usage: node test/consumers/run.mjs [--keep] [--only=esm-bundler,esm-nodenext,cjs-require,readme-blocks]
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureNodeBinaries, NODE_ALIASES, nodeBinary } from "../runtimes/lib/node-binaries.mjs";
import { PRISMA_OFFLINE_ENV, prismaGenerate } from "../support/prisma-generate.mjs";
import { docExamples, locateInSources } from "./doc-examples.mjs";
import { importedPackages, readmeBlocks } from "./readme-blocks.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const HERE = fileURLToPath(new URL(".", import.meta.url));
/** The repository's TypeScript (5.9), and the next major, installed into the consumer project (see install()). */
const COMPILERS = [
  { name: "TypeScript 5.9", tsc: join(ROOT, "node_modules", "typescript", "bin", "tsc") },
  { name: "TypeScript 7", tsc: "node_modules/typescript/bin/tsc", version: "^7.0.2" },
];

/** The Node versions that run each compiled fixture: the machine's, and those of the runtime matrix. */
const NODES = [["node", process.execPath], ...NODE_ALIASES.map((alias) => [alias, nodeBinary(alias)])];

/** Every published package: the libraries, and @tidings/cli for the `startEmulator` its README shows. */
const PACKAGES = [
  "core",
  "express",
  "fastify",
  "fetch",
  "h3",
  "koa",
  "lambda",
  "nestjs",
  "next",
  "redis",
  "postgres",
  "bullmq",
  "pg-boss",
  "opentelemetry",
  "cli",
];
/** Types an app has beside what the fixtures and README blocks import, at the versions the repository tests. */
const TYPES = ["@types/express", "@types/koa", "@types/node"];
const FIXTURES = [
  // The two ESM projects differ only in tsconfig; they share one source (shared/esm-consumer.mts).
  { name: "esm-bundler", output: "dist/index.mjs", source: "shared/esm-consumer.mts" },
  { name: "esm-nodenext", output: "dist/index.mjs", source: "shared/esm-consumer.mts" },
  { name: "cjs-require", output: "dist/index.cjs" },
  // Type-checked only: the README examples start servers.
  { name: "readme-blocks", blocks: true },
];

/**
 * npm scripts put npm_* settings (prefix, workspace...) in the environment: keep them from the nested npm. Prisma's
 * install and `prisma generate` fetch no engine (test/support/prisma-generate.mjs).
 */
function cleanNpmEnv() {
  const keep = new Set(["npm_config_registry", "npm_config_cache", "npm_config_userconfig", "npm_config_globalconfig"]);
  const env = Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || keep.has(key));
  return { ...Object.fromEntries(env), ...PRISMA_OFFLINE_ENV };
}

function run(command, args, cwd, what) {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, env: cleanNpmEnv(), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) {
    throw new Error(`${what} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  }
  return { stdout: result.stdout, seconds };
}

// --prefer-offline: the root install already put every peer in npm's cache; the registry only on a miss.
const NPM_INSTALL_FLAGS = ["--prefer-offline", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"];

/** The version the repository tests, or what `npm i <name>` installs where the repository has none. */
function installedVersion(name) {
  return existsSync(join(ROOT, "node_modules", name, "package.json")) ? rootVersion(name) : "latest";
}

function runAsync(command, args, cwd, what) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: cleanNpmEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.once("error", reject);
    child.once("close", (code, signal) =>
      code === 0 ? resolve(output) : reject(new Error(`${what} failed (${code ?? signal}):\n${output}`)),
    );
  });
}

function rootVersion(name) {
  return JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")).version;
}

/** What to install for a name the repository has: its version, or `npm:<package>@<version>` for an alias (h3-v1). */
function rootSpec(name) {
  const manifest = JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8"));
  return manifest.name === name ? manifest.version : `npm:${manifest.name}@${manifest.version}`;
}

/**
 * An imported package and its @types package where the repository installs one (`pg` and `@types/pg`, as an app adds
 * them); a types-only import of a name no package has (`import type … from "aws-lambda"`) is the @types package alone.
 */
function withTypes(name) {
  const types = `@types/${name.replace(/^@([^/]+)\//, "$1__")}`;
  const installed = (dependency) => existsSync(join(ROOT, "node_modules", dependency, "package.json"));
  if (!installed(types)) return [name];
  return installed(name) ? [name, types] : [types];
}

/** `npm pack` of each package: exactly the files npm would publish. */
function pack(destination) {
  for (const name of PACKAGES) {
    if (!existsSync(join(ROOT, "packages", name, "dist"))) {
      throw new Error(`packages/${name}/dist is missing: run \`npx turbo run build\` first`);
    }
  }
  mkdirSync(destination, { recursive: true });
  const workspaces = PACKAGES.flatMap((name) => ["--workspace", `@tidings/${name}`]);
  const { stdout, seconds } = run(
    "npm",
    ["pack", "--json", "--pack-destination", destination, ...workspaces],
    ROOT,
    "npm pack",
  );
  const packed = JSON.parse(stdout);
  for (const entry of packed) console.log(`  packed ${entry.filename}: ${entry.entryCount} files, ${entry.size} B`);
  return { tarballs: Object.fromEntries(packed.map((entry) => [entry.name, entry.filename])), seconds };
}

/** Every @tidings package must be the packed one, installed once at the top: none from the registry, none nested. */
function assertInstalledFromTarballs(project) {
  for (const name of PACKAGES) {
    const dir = join(project, "node_modules", "@tidings", name);
    if (!existsSync(join(dir, "package.json")) || lstatSync(dir).isSymbolicLink()) {
      throw new Error(`${dir} is not an installed copy of the packed @tidings/${name}`);
    }
  }
  const nested = [];
  const dirs = (path) => readdirSync(path, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const walkNodeModules = (nodeModules, depth) => {
    for (const entry of dirs(nodeModules)) {
      const path = join(nodeModules, entry.name);
      if (entry.name === "@tidings" && depth > 0) nested.push(path);
      if (entry.name.startsWith("@")) for (const scoped of dirs(path)) walkPackage(join(path, scoped.name), depth);
      else walkPackage(path, depth);
    }
  };
  const walkPackage = (path, depth) => {
    if (existsSync(join(path, "node_modules"))) walkNodeModules(join(path, "node_modules"), depth + 1);
  };
  walkNodeModules(join(project, "node_modules"), 0);
  if (nested.length > 0) throw new Error(`nested copies of @tidings packages: ${nested.join(", ")}`);
}

/** The package READMEs and the root one are type-checked from their own install lines (typeCheckPerReadme). */
const isolated = (block) =>
  block.installs.length > 0 && /^(README\.md|packages\/[^/]+\/README\.md)$/.test(block.readme);

/** What the fixtures, README blocks and `@example` blocks import besides @tidings/*, plus the types apps add. */
function peers(blocks) {
  const esm = readFileSync(join(HERE, "shared", "esm-consumer.mts"), "utf8");
  const cjs = readFileSync(join(HERE, "cjs-require", "index.cts"), "utf8");
  const required = [...cjs.matchAll(/require\("([^"]+)"\)/g)].map((match) => `import "${match[1]}";`).join("\n");
  const fixtureImports = [...importedPackages(esm), ...importedPackages(`${cjs}\n${required}`)];
  const imported = blocks.flatMap((block) => importedPackages(block.code)).flatMap(withTypes);
  return [...new Set([...fixtureImports, ...imported, ...TYPES])].filter((name) => !name.startsWith("@tidings/"));
}

function install(project, tarballs, peerNames) {
  const dependencies = {};
  for (const [name, file] of Object.entries(tarballs)) dependencies[name] = `file:tarballs/${file}`;
  for (const name of peerNames) dependencies[name] = rootSpec(name);
  for (const { version } of COMPILERS) if (version) dependencies.typescript = version;
  const manifest = { name: "tidings-consumers", private: true, dependencies };
  writeFileSync(join(project, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const { seconds } = run("npm", ["install", ...NPM_INSTALL_FLAGS], project, "npm install of the tarballs");
  assertInstalledFromTarballs(project);
  return seconds;
}

/**
 * The blocks of the package READMEs and the root README, each type-checked in a project of its own, outside the
 * consumer project, where npm installed only what the block's own install lines install (the packed tarballs for
 * @tidings/*): an import whose types those lines leave out (`@types/express`) fails there as in a new app. Strict;
 * `types` lists the installed @types packages (TypeScript 6 and later include none by default); `skipLibCheck`
 * only where the README tells the reader to set it. Blocks needing the same installs share a project.
 */
async function typeCheckPerReadme(project, blocks, tarballs) {
  const groups = new Map();
  for (const block of blocks.filter(isolated)) {
    const key = `${block.installs.join(" ")}${block.skipLibCheck ? " (skipLibCheck)" : ""}${block.prismaSchema ?? ""}`;
    groups.set(key, [...(groups.get(key) ?? []), block]);
  }
  const base = JSON.parse(readFileSync(join(HERE, "readme-blocks", "tsconfig.json"), "utf8")).compilerOptions;
  const started = performance.now();
  const check = async (group, index) => {
    const dir = join(`${project}-readmes`, String(index));
    const { installs, skipLibCheck } = group[0];
    const where = group.map((block) => `${block.readme}:${block.line}`).join(", ");
    mkdirSync(dir, { recursive: true });
    // The registry would bring @tidings/core with any other @tidings package; here it is the packed one.
    const names = installs.some((name) => name.startsWith("@tidings/")) ? [...installs, "@tidings/core"] : installs;
    const dependencies = Object.fromEntries(
      names.map((name) => [
        name,
        name in tarballs ? `file:${join(project, "tarballs", tarballs[name])}` : installedVersion(name),
      ]),
    );
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ private: true, dependencies }, null, 2)}\n`);
    const types = installs.filter((name) => name.startsWith("@types/")).map((name) => name.slice("@types/".length));
    const tsconfig = { compilerOptions: { ...base, types, skipLibCheck }, include: ["*.mts"] };
    writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
    for (const block of group) writeFileSync(join(dir, block.file), block.code);
    await runAsync("npm", ["install", ...NPM_INSTALL_FLAGS], dir, `npm install of ${installs.join(" ")} (${where})`);
    // The block imports the client that `prisma generate` writes from its README's schema.
    if (group[0].prismaSchema) {
      mkdirSync(join(dir, "prisma"));
      writeFileSync(join(dir, "prisma", "schema.prisma"), group[0].prismaSchema);
      prismaGenerate(join(dir, "prisma", "schema.prisma"), dir);
    }
    for (const { name, tsc } of COMPILERS) {
      const compiler = tsc.startsWith("node_modules") ? join(project, tsc) : tsc;
      await runAsync(
        process.execPath,
        [compiler, "-p", dir],
        dir,
        `${name} on ${where}, after npm i ${installs.join(" ")}`,
      );
    }
  };
  // A few at a time: each is mostly npm waiting on its cache and tsc on one core.
  const queue = [...groups.values()].map((group, index) => () => check(group, index));
  const failures = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      await next().catch((error) => failures.push(error.message));
  };
  await Promise.all([worker(), worker(), worker()]);
  if (failures.length > 0) throw new Error(failures.join("\n"));
  console.log(`  ${groups.size} projects, each installed from a README block's own install lines, type-checked`);
  return (performance.now() - started) / 1000;
}

async function testFixture(project, fixture, { blocks, examples, tarballs }) {
  const sharedBlocks = fixture.blocks ? [...blocks.filter((block) => !isolated(block)), ...examples] : [];
  const dir = join(project, fixture.name);
  cpSync(join(HERE, fixture.name), dir, { recursive: true, filter: (path) => !/[\\/](dist|node_modules)$/.test(path) });
  if (fixture.source) cpSync(join(HERE, fixture.source), join(dir, "index.mts"));
  if (fixture.blocks) {
    for (const block of sharedBlocks) writeFileSync(join(dir, block.file), block.code);
    const markdown = sharedBlocks.length - examples.length;
    console.log(`  ${markdown} blocks of the other Markdown files and ${examples.length} @example blocks of the`);
    console.log("  packages' sources, in one project with every package");
  }
  const times = {};
  // The first compiler (the repository's) emits what node runs; the others only check.
  for (const [index, { name, tsc }] of COMPILERS.entries()) {
    if (fixture.blocks && sharedBlocks.length === 0) break;
    const args = [tsc, "-p", dir, ...(index > 0 || fixture.blocks ? ["--noEmit"] : [])];
    try {
      times[name] = run(process.execPath, args, project, `${name}: tsc -p ${fixture.name}`).seconds;
    } catch (error) {
      throw new Error(locateInSources(error.message, examples));
    }
  }
  if (fixture.blocks) times["per-README projects"] = await typeCheckPerReadme(project, blocks, tarballs);
  if (fixture.output) {
    for (const [name, binary] of NODES) {
      const execution = run(binary, [join(dir, fixture.output)], dir, `${name} ${fixture.name}/${fixture.output}`);
      process.stdout.write(execution.stdout);
      times[name] = execution.seconds;
    }
  }
  return times;
}

async function main() {
  const only = process.argv
    .find((arg) => arg.startsWith("--only="))
    ?.slice("--only=".length)
    ?.split(",");
  const fixtures = only ? FIXTURES.filter((fixture) => only.includes(fixture.name)) : FIXTURES;
  if (fixtures.length === 0) throw new Error(`no fixture matches --only=${only}`);
  ensureNodeBinaries();
  const project = mkdtempSync(join(tmpdir(), "tidings-consumers-"));
  const keep = process.argv.includes("--keep");
  let failed = 0;
  try {
    console.log(`packing into ${project}/tarballs`);
    const packed = pack(join(project, "tarballs"));
    console.log(`  (${packed.seconds.toFixed(1)} s)`);
    const blocks = readmeBlocks(ROOT);
    const examples = docExamples(ROOT);
    const peerNames = peers([...blocks, ...examples]);
    console.log(`installing the tarballs, ${peerNames.join(", ")} and TypeScript 7`);
    console.log(`  (${install(project, packed.tarballs, peerNames).toFixed(1)} s)`);
    for (const fixture of fixtures) {
      console.log(`\n== ${fixture.name}`);
      try {
        const times = await testFixture(project, fixture, { blocks, examples, tarballs: packed.tarballs });
        const timing = Object.entries(times).map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`);
        console.log(`ok ${fixture.name}: ${timing.join(", ")}`);
      } catch (error) {
        failed++;
        console.error(`FAILED ${fixture.name}: ${error.message}`);
      }
    }
  } finally {
    if (keep) console.log(`\nkept ${project}`);
    else for (const dir of [project, `${project}-readmes`]) rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nconsumers: ${fixtures.length - failed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

await main();
