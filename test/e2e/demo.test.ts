import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

it("`npm run demo` delivers every message to its final status and exits 0", async () => {
  // The demo script itself (npm run demo = build the packages, then this): emulator + Express example, real HTTP.
  const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile("npx", ["tsx", "scripts/demo.ts"], { cwd: ROOT, timeout: 60_000 }, (error, out) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: out });
    });
  });
  expect(code, stdout).toBe(0);
  expect(stdout).toContain("Every message reached its final status, its events handled in order");
  expect(stdout.match(/✓ msg_\w+\s+\w+\s+delivered/g)).toHaveLength(3);
  expect(stdout).toMatch(/✓ msg_\w+\s+sms\s+failed/);
});
