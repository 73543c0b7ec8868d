import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build, type Options } from "tsup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageBuild } from "../../../config/tsup";
import { until } from "../../../test/support/wait";
import { binBuild } from "../tsup.config";
import { SECRET, startReceiver } from "./helpers";

// The binary is built with the package's own bin config into a scratch folder inside node_modules, so its imports
// (commander, @tidings/core…) resolve as they do when installed, and dist/ is left alone.
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const outDir = join(packageDir, "node_modules", ".cache", `bin-test-${process.pid}`);
const bin = join(outDir, "bin.js");
const run = promisify(execFile);

beforeAll(async () => {
  const options = packageBuild({ ...binBuild, outDir, sourcemap: false }) as Options;
  await build({ ...options, config: false, silent: true });
}, 60_000);
afterAll(() => rm(outDir, { recursive: true, force: true }));

/** Runs the binary through its shebang (not `node bin.js`), as a shell would. */
async function tidings(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(bin, args);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

describe("the tidings binary", () => {
  it("is an executable file starting with a node shebang", async () => {
    expect((await readFile(bin, "utf8")).startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect((await stat(bin)).mode & 0o111).not.toBe(0);
  });

  it.each([
    [[], ["sign", "send", "emulate", "check", "fixtures"]],
    [["sign"], ["--secret", "--timestamp", "TIDINGS_SECRET"]],
    [["send"], ["--url", "--type", "--data", "--count", "--concurrency", "--progress", "--verbose"]],
    [["emulate"], ["--port", "--host", "--webhook-url", "--attempts", "--retry-base", "--retry-factor", "sk_test_"]],
    [["emulate"], ["--duplicates", "--reorder", "--delay", "--clock-skew", "--seed", "--ui-port", "--no-ui"]],
    [["check"], ["--url", "--secret", "--json", "--size", "--timeout-warn"]],
  ])("%j --help prints usage on stdout and exits 0", async (command, mentions) => {
    const result = await tidings([...command, "--help"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(new RegExp(`^Usage: tidings ${command[0] ?? ""}`));
    for (const mention of mentions) expect(result.stdout).toContain(mention);
  });

  it.each([
    [["sign", "--timestamp", "yesterday", "-s", "x"]],
    [["send", "--url", "http://127.0.0.1:9/", "-s", "x", "--count", "many"]],
    [["emulate", "-w", "http://127.0.0.1:9/", "-s", "x", "--port", "70000"]],
    [["emulate", "-s", "x"]],
    [["frobnicate"]],
  ])("%j: one line on stderr, no stack trace, exit 1", async (args) => {
    const result = await tidings(args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^error: [^\n]+\n$/);
  });

  it("signs a payload piped through a shell: the conformance vector's header, nothing else", async () => {
    const vectorsFile = fileURLToPath(new URL("../../../test/vectors/vectors.json", import.meta.url));
    const [vector] = JSON.parse(await readFile(vectorsFile, "utf8")) as {
      secret: string;
      timestamp: number;
      bodyBase64: string;
      signature: string;
    }[];
    if (!vector) throw new Error("no vectors");
    const { stdout, stderr } = await run("sh", [
      "-c",
      'printf %s "$1" | base64 -d | "$2" sign --secret "$3" --timestamp "$4"',
      "sh",
      vector.bodyBase64,
      bin,
      vector.secret,
      String(vector.timestamp),
    ]);
    expect(stderr).toBe("");
    expect(stdout).toBe(`t=${vector.timestamp},v1=${vector.signature}\n`);
  });

  it("emulate: serves the API, delivers to a real receiver, and stops cleanly on SIGTERM", async () => {
    const receiver = await startReceiver();
    let child: ChildProcess | undefined;
    try {
      child = spawn(bin, ["emulate", "--port", "0", "--ui-port", "0", "-w", receiver.url, "--retry-base", "1"], {
        env: { ...process.env, TIDINGS_SECRET: SECRET },
      });
      let stdout = "";
      child.stdout?.setEncoding("utf8");
      const [url, dashboard] = await new Promise<[string, string]>((resolve, reject) => {
        child?.stdout?.on("data", (chunk: string) => {
          stdout += chunk;
          const match = /listening on (http:\/\/\S+)[\s\S]*dashboard: (http:\/\/\S+)/.exec(stdout);
          if (match?.[1] && match[2]) resolve([match[1], match[2]]);
        });
        child?.on("exit", () => reject(new Error(`exited early: ${stdout}`)));
      });
      const exited = new Promise<number | null>((resolve) => child?.on("exit", (code) => resolve(code)));
      const response = await fetch(`${url}/v3/messages`, {
        method: "POST",
        headers: { authorization: "Bearer sk_test_bin" },
        body: new URLSearchParams({ channel: "sms", to: "+15005550001", body: "hi" }),
      });
      expect(response.status).toBe(202);
      expect(await (await fetch(dashboard)).text()).toContain("<title>tidings emulator</title>");
      await until(() => receiver.events.length >= 3, "the message's three events");
      expect(receiver.events.map((event) => event.type)).toEqual(["message.queued", "message.sent", "message.failed"]);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(stdout).toMatch(/message\.failed attempt 1\/5: 200, delivered\n/);
      expect(stdout).toMatch(/SIGTERM: stopping.*\nstopped\n$/);
    } finally {
      if (child?.exitCode === null) child.kill("SIGKILL");
      await receiver.close();
    }
  });
});
