#!/usr/bin/env node
// `npm run test:quick-start`: the README's Quick start, as a new user runs it. Clones the repository (its committed
// HEAD) into a temporary folder, reads the commands out of the clone's README.md (the first `sh` block under
// its "Quick start" heading), runs them there with an empty npm cache, and checks the demo's final line; then runs the
// command the README shows for the CLI. Nothing here repeats the commands: README and reality cannot drift apart.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DEMO_LAST_LINE =
  "Every message reached its final status, its events handled in order despite the reordering and duplicates.";

/** The commands of the first `sh` block under the README's "Quick start" heading, before any other heading. */
function quickStartCommands(readme) {
  const lines = readme.split("\n");
  const heading = lines.findIndex((line) => /^#{1,6} Quick start\b/.test(line));
  const start = lines.findIndex((line, index) => index > heading && (line === "```sh" || /^#{1,6} /.test(line)));
  const end = lines.findIndex((line, index) => index > start && line === "```");
  if (heading < 0 || start < 0 || lines[start] !== "```sh" || end < 0) {
    throw new Error('README.md has no ```sh block under a "Quick start" heading');
  }
  return `${lines.slice(start + 1, end).join("\n")}\n`;
}

/** npm scripts put npm_* settings (prefix, workspace…) in the environment: a new user's shell has none. */
function userEnvironment(cache) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, npm_config_cache: cache };
}

function run(command, args, cwd, env) {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`,
    );
  }
  return result.stdout;
}

const scratch = mkdtempSync(join(tmpdir(), "tidings-quick-start-"));
const clone = join(scratch, "tidings");
const env = userEnvironment(join(scratch, "npm-cache"));
try {
  run("git", ["clone", "--quiet", ROOT, clone], scratch, env);
  // The commit checked out here, even when it is a detached HEAD that a clone would not check out by itself.
  const head = run("git", ["rev-parse", "HEAD"], ROOT, env).trim();
  run("git", ["checkout", "--quiet", "--detach", head], clone, env);
  const commands = quickStartCommands(readFileSync(join(clone, "README.md"), "utf8"));
  console.log(`Quick start, in a fresh clone with an empty npm cache:\n${commands}`);
  const started = performance.now();
  const output = run("bash", ["-euo", "pipefail", "-c", commands], clone, env);
  const lastLine = output.trimEnd().split("\n").at(-1);
  if (lastLine !== DEMO_LAST_LINE) throw new Error(`the demo's last line is "${lastLine}":\n${output}`);
  console.log(`  ok in ${((performance.now() - started) / 1000).toFixed(0)} s: "${lastLine}"`);
  const help = run("npx", ["@tidings/cli", "--help"], clone, env);
  if (!help.startsWith("Usage: tidings")) throw new Error(`npx @tidings/cli --help printed:\n${help}`);
  console.log("  ok: npx @tidings/cli runs the workspace's command");
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
