import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

export const TIDINGS_BIN = fileURLToPath(new URL("../../packages/cli/dist/bin.js", import.meta.url));

/** Runs the built `tidings` binary, as a user would; `node` picks another Node binary (pg-boss needs Node ≥ 22.12). */
export function tidings(
  args: string[],
  { node = process.execPath }: { node?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(node, [TIDINGS_BIN, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
