#!/usr/bin/env node
// The `tidings` command. This file is committed, not built, so npm links the command when it installs the package,
// even in a fresh clone where dist/ does not exist yet; the command itself is dist/bin.js.
import { existsSync } from "node:fs";

const built = new URL("../dist/bin.js", import.meta.url);
if (!existsSync(built)) {
  console.error("error: @tidings/cli is not built yet (dist/bin.js is missing): run `npm run build` first.");
  process.exit(1);
}
await import(built.href);
