#!/usr/bin/env node
// The runtime matrix (`npm run test:runtimes`): the built packages in Bun, Deno and workerd over real loopback
// HTTP, and the core and adapter suites on Node 22, 24 and 26. See README.md beside this file.
// Usage: node test/runtimes/run.mjs [--only=node,bun,deno,workerd,node22,node24,node26]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runDeliveryCases } from "./lib/cases.mjs";
import { ensureNodeBinaries, nodeBinary } from "./lib/node-binaries.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const HERE = fileURLToPath(new URL(".", import.meta.url));
const BIN = join(ROOT, "node_modules", ".bin");

/**
 * The suites run again on Node 22, 24 and 26, as path filters (project names change, paths less): core, the
 * Web-standard and node:http adapters, and the five-adapter conformance suite over HTTP. All of them, and
 * everything else, already run on the machine's Node in `npm test`; Redis semantics, Next.js builds and the
 * e2e examples do not depend on the Node version enough to pay for them twice more.
 */
const NODE_SUITES = [
  "packages/core/",
  "packages/fetch/",
  "packages/express/",
  "packages/koa/",
  "packages/fastify/",
  "test/conformance/",
];

const TARGETS = {
  node: testMachineNode,
  bun: testBun,
  deno: testDeno,
  workerd: testWorkerd,
  node22: () => testNode("node22"),
  node24: () => testNode("node24"),
  node26: () => testNode("node26"),
};

function packageVersion(name) {
  return JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")).version;
}

/** Starts a server entry that prints `{"port": n}` once listening; resolves to its base URL and a stop(). */
function serve(label, command, args, env = process.env) {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", resolve);
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`${label} did not start listening within 30 s. stderr:\n${stderr}`));
    }, 30_000);
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const newline = stdout.indexOf("\n");
      if (newline === -1) return;
      clearTimeout(timer);
      try {
        const { port } = JSON.parse(stdout.slice(0, newline));
        resolve({ baseUrl: `http://127.0.0.1:${port}`, stop, stderr: () => stderr });
      } catch (error) {
        stop();
        reject(new Error(`${label} printed ${JSON.stringify(stdout)} instead of {"port": n}: ${error}`));
      }
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited (${code ?? signal}) before listening. stderr:\n${stderr}`));
    });
  });
}

/** What every served runtime reports: its crypto path, body decoding, sync verify, and the checks that passed. */
function outcome(result) {
  const { cryptoPath, getBuiltinModule, bodyDecoding } = result.info;
  return {
    cryptoPath,
    getBuiltinModule,
    bodyDecoding,
    syncVerify: result.syncVerify,
    checks: result.passed.length,
    passed: result.passed,
  };
}

async function testServer(label, command, args, env) {
  const server = await serve(label, command, args, env);
  try {
    const result = await runDeliveryCases(server.baseUrl, { cryptoPath: "node:crypto" });
    return {
      version: result.info.version,
      ...outcome(result),
      how: `${label === "bun" ? "Bun.serve" : "Deno.serve"} on 127.0.0.1:0, built @tidings/fetch + @tidings/core`,
    };
  } catch (error) {
    const stderr = server.stderr().trim();
    if (stderr) error.message += `\n${label} stderr:\n${stderr}`;
    throw error;
  } finally {
    await server.stop();
  }
}

function testBun() {
  return testServer("bun", join(BIN, "bun"), ["test/runtimes/servers/bun.ts"]);
}

function testDeno() {
  // --node-modules-dir=manual: resolve bare specifiers from the workspace's node_modules, as a Deno project
  // with a package.json does; --no-lock: leave no deno.lock behind. No permission but loopback networking.
  const args = ["run", "--no-lock", "--no-prompt", "--node-modules-dir=manual", "--allow-net=127.0.0.1"];
  const env = { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
  return testServer("deno", join(BIN, "deno"), [...args, "test/runtimes/servers/deno.ts"], env);
}

async function testWorkerd() {
  const { build } = await import("esbuild");
  // What wrangler does for a Worker: one ESM bundle, Worker-first export conditions, nothing external.
  const bundle = await build({
    entryPoints: [join(HERE, "servers", "worker.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const inputs = Object.keys(bundle.metafile.inputs);
  for (const built of ["packages/core/dist/index.js", "packages/fetch/dist/index.js"]) {
    if (!inputs.includes(built)) throw new Error(`the Worker bundle does not hold ${built}: ${inputs.join(", ")}`);
  }
  const { Miniflare } = await import("miniflare");
  // No compatibilityFlags: without nodejs_compat there is no process, node:crypto or node:zlib in the Worker.
  const mf = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0].text,
    compatibilityDate: "2026-04-20",
    host: "127.0.0.1",
    port: 0,
  });
  try {
    const url = await mf.ready;
    const result = await runDeliveryCases(url.origin, { cryptoPath: "Web Crypto" });
    return {
      version: `workerd ${packageVersion("workerd")} (miniflare ${packageVersion("miniflare")})`,
      ...outcome(result),
      how: `Miniflare, esbuild ESM bundle of @tidings/fetch (${(bundle.outputFiles[0].contents.byteLength / 1024).toFixed(1)} KiB), no nodejs_compat`,
    };
  } finally {
    await mf.dispose();
  }
}

let nodeBinariesChecked = false;

/** What core sees in a Node binary, through the built package: getBuiltinModule, and a sync verify. */
function probeNode(binary) {
  const script = `import { sign, verify } from "@tidings/core";
const header = sign("{}", "s");
verify("{}", header, "s");
console.log(JSON.stringify({ version: process.version, getBuiltinModule: typeof process.getBuiltinModule === "function" }));`;
  const probe = spawnSync(binary, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
  if (probe.status !== 0) throw new Error(`${binary}: the built @tidings/core failed a sync verify:\n${probe.stderr}`);
  return JSON.parse(probe.stdout);
}

/** The machine's Node runs every vitest project in `npm test`; here only what core sees in it. */
function testMachineNode() {
  return nodeOutcome(probeNode(process.execPath), 1, "the built core's probe here; every vitest project in `npm test`");
}

/** What a Node binary showed: its probe, and how many checks passed there. */
function nodeOutcome(probe, checks, how) {
  return {
    version: probe.version,
    cryptoPath: probe.getBuiltinModule ? "node:crypto" : "none found",
    getBuiltinModule: probe.getBuiltinModule,
    bodyDecoding: "node:zlib",
    syncVerify: "works",
    checks,
    how,
  };
}

async function testNode(alias) {
  if (!nodeBinariesChecked) {
    ensureNodeBinaries();
    nodeBinariesChecked = true;
  }
  const binary = nodeBinary(alias);
  const probe = probeNode(binary);
  const report = join(mkdtempSync(join(tmpdir(), "tidings-vitest-")), "report.json");
  const args = [
    join(ROOT, "node_modules", "vitest", "vitest.mjs"),
    "run",
    ...NODE_SUITES,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
  ];
  // The binary's own directory first on PATH, so that anything a test spawns as `node` is this version too.
  // Vite on Node ≥ 22.18 warns, once per project, that its future native config loader will want file extensions.
  const env = {
    ...process.env,
    PATH: `${dirname(binary)}:${process.env.PATH}`,
    VITE_CONFIG_NATIVE_IGNORE_WARNING: "true",
  };
  const code = await new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd: ROOT, env, stdio: ["ignore", "inherit", "inherit"] });
    child.once("error", reject);
    child.once("exit", (exitCode, signal) => resolve(exitCode ?? signal));
  });
  const summary = existsSync(report) ? JSON.parse(readFileSync(report, "utf8")) : undefined;
  rmSync(dirname(report), { recursive: true, force: true });
  if (code !== 0 || !summary) throw new Error(`vitest on Node ${probe.version} exited with ${code}`);
  // A misconfiguration (a project filter that matches nothing) must not pass with few or no tests.
  if (summary.numPassedTests < 200 || summary.numFailedTests > 0) {
    throw new Error(
      `vitest on Node ${probe.version}: ${summary.numPassedTests} passed, ${summary.numFailedTests} failed`,
    );
  }
  return nodeOutcome(
    probe,
    summary.numPassedTests,
    `vitest ${NODE_SUITES.join(" ")} (${summary.testResults.length} files)`,
  );
}

async function main() {
  const only = process.argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
  const names = only ? only.split(",") : Object.keys(TARGETS);
  for (const name of names) if (!(name in TARGETS)) throw new Error(`unknown target ${name}: ${Object.keys(TARGETS)}`);
  for (const built of ["packages/core/dist/index.js", "packages/fetch/dist/index.js"]) {
    if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run \`npx turbo run build\` first`);
  }
  const results = [];
  for (const name of names) {
    const started = performance.now();
    console.log(`\n== ${name}`);
    try {
      const result = await TARGETS[name]();
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      results.push({ name, ok: true, seconds, ...result });
      for (const check of result.passed ?? []) console.log(`  ✓ ${check}`);
      console.log(`ok ${name} ${result.version}: ${result.checks} checks, crypto ${result.cryptoPath}, ${seconds} s`);
    } catch (error) {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      results.push({ name, ok: false, seconds, error });
      console.error(`FAILED ${name} after ${seconds} s: ${error?.stack ?? error}`);
    }
  }
  console.log("\nruntime | version | getBuiltinModule | crypto path | body decoding | sync verify | checks | time");
  for (const r of results) {
    if (r.ok) {
      console.log(
        `${r.name} | ${r.version} | ${r.getBuiltinModule} | ${r.cryptoPath} | ${r.bodyDecoding} | ${r.syncVerify} | ${r.checks} | ${r.seconds} s`,
      );
    } else
      console.log(
        `${r.name} | FAILED: ${String(r.error?.message ?? r.error).split("\n")[0]} | | | | | | ${r.seconds} s`,
      );
  }
  const failed = results.filter((r) => !r.ok).length;
  console.log(`\nruntimes: ${results.length - failed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

await main();
