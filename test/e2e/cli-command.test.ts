import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const COMMAND = join(ROOT, "packages", "cli", "bin", "tidings.js");
const run = promisify(execFile);

async function outcome(file: string, args: string[], cwd = ROOT) {
  try {
    const { stdout, stderr } = await run(file, args, { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

describe("the tidings command in the repository", () => {
  it("is linked by npm install to the committed bin file, which runs the built command", async () => {
    expect(await realpath(join(ROOT, "node_modules", ".bin", "tidings"))).toBe(COMMAND);
    const result = await outcome("npx", ["@tidings/cli", "sign", "--help"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Usage: tidings sign/);
  });

  it("says to build first, in one line, when dist/ does not exist", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "tidings-cli-"));
    try {
      await mkdir(join(scratch, "bin"));
      await copyFile(COMMAND, join(scratch, "bin", "tidings.js"));
      const result = await outcome(join(scratch, "bin", "tidings.js"), ["--help"], scratch);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/^error: @tidings\/cli is not built yet .*run `npm run build` first\.\n$/);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
