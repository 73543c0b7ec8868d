import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verify } from "@tidings/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers";

interface Vector {
  name: string;
  secret: string;
  timestamp: number;
  bodyBase64?: string;
  signature: string;
}

const vectorsFile = new URL("../../../test/vectors/vectors.json", import.meta.url);
let vectors: Vector[];
let dir: string;

beforeAll(async () => {
  vectors = (JSON.parse(await readFile(vectorsFile, "utf8")) as Vector[]).filter((v) => v.bodyBase64 !== undefined);
  dir = await mkdtemp(join(tmpdir(), "tidings-sign-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const vector = (name: string) => {
  const found = vectors.find((v) => v.name === name);
  if (!found) throw new Error(`no vector ${name}`);
  return { ...found, body: Buffer.from(found.bodyBase64 ?? "", "base64") };
};

describe("tidings sign", () => {
  it.each(["ascii-json", "multibyte-utf8-json", "bom-and-invalid-utf8", "empty-body"])(
    "matches the conformance vector %s, reading the file's exact bytes",
    async (name) => {
      const v = vector(name);
      const file = join(dir, `${name}.bin`);
      await writeFile(file, v.body);
      const result = await runCli(["sign", "--secret", v.secret, "--timestamp", String(v.timestamp), file]);
      expect(result).toEqual({ code: 0, stdout: `t=${v.timestamp},v1=${v.signature}\n`, stderr: "" });
    },
  );

  it("reads stdin for - and for no argument, byte for byte (no text decoding)", async () => {
    const v = vector("bom-and-invalid-utf8");
    const half = Math.floor(v.body.length / 2);
    const chunks = [v.body.subarray(0, half), v.body.subarray(half)];
    const args = ["sign", "-s", v.secret, "-t", String(v.timestamp)];
    for (const argv of [[...args, "-"], args]) {
      const result = await runCli(argv, { stdin: chunks });
      expect(result.stdout).toBe(`t=${v.timestamp},v1=${v.signature}\n`);
    }
  });

  it("signs with the current time by default: the output verifies with core's verify", async () => {
    const body = '{"type":"message.sent","data":{"id":"msg_1","status":"sent","channel":"sms"}}';
    const result = await runCli(["sign", "-s", "whsec_now"], { stdin: [body] });
    expect(result.code).toBe(0);
    const header = result.stdout.trim();
    expect(verify(body, header, "whsec_now").timestamp).toBe(Number(/^t=(\d+),/.exec(header)?.[1]));
    expect(() => verify(body, header, "whsec_other")).toThrow();
  });

  it("takes the secret from TIDINGS_SECRET", async () => {
    const v = vector("ascii-json");
    process.env.TIDINGS_SECRET = v.secret;
    try {
      const result = await runCli(["sign", "-t", String(v.timestamp)], { stdin: [v.body] });
      expect(result.stdout).toBe(`t=${v.timestamp},v1=${v.signature}\n`);
    } finally {
      delete process.env.TIDINGS_SECRET;
    }
  });

  it.each([
    [["sign", "-t", "1"], /^error: required option '-s, --secret <secret>' not specified\n$/],
    [["sign", "-s", "x", "-t", "soon"], /^error: option .*--timestamp.* argument 'soon' is invalid\..*\n$/],
    [["sign", "-s", "x", "-t", "-5"], /^error: .*\n$/],
    [["sign", "-s", "", "-t", "1"], /^error: option .*--secret.* is invalid\..*\n$/],
    [["sign", "-s", "x", "/no/such/file"], /^error: cannot read \/no\/such\/file: ENOENT\n$/],
    [["sign", "-s", "x", "--secert", "y"], /^error: unknown option '--secert' \(Did you mean --secret\?\)\n$/],
  ])("%j: one line on stderr, exit 1, nothing on stdout", async (argv, stderr) => {
    const result = await runCli(argv, { stdin: ["{}"] });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(stderr);
  });
});
