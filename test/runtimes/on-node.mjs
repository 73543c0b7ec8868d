#!/usr/bin/env node
// Runs vitest (in the current directory) on another Node binary of node-versions/, installing it on first use:
// `node ../../test/runtimes/on-node.mjs node24 run` in a package whose engine needs Node ≥ 22.
import { spawn } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureNodeBinaries, nodeBinary } from "./lib/node-binaries.mjs";

const [alias, ...vitestArgs] = process.argv.slice(2);
ensureNodeBinaries();
const binary = nodeBinary(alias);
const vitest = fileURLToPath(new URL("../../node_modules/vitest/vitest.mjs", import.meta.url));
// The binary's directory first on PATH, so that anything the tests spawn as `node` is this version too.
const env = {
  ...process.env,
  PATH: `${dirname(binary)}:${process.env.PATH}`,
  VITE_CONFIG_NATIVE_IGNORE_WARNING: "true",
};
const child = spawn(binary, [vitest, ...vitestArgs], { stdio: "inherit", env });
child.once("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
