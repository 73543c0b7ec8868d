import { deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WebhookVerificationError } from "../src/entries";

// Where node:zlib is missing (edge runtimes, Workers), decoding falls back to DecompressionStream.
describe("Content-Encoding without node:zlib", () => {
  const proc = process as { getBuiltinModule?: ((id: string) => unknown) | undefined };
  const original = proc.getBuiltinModule;

  afterEach(() => {
    proc.getBuiltinModule = original;
    vi.resetModules();
  });

  async function decoderWithoutZlib() {
    proc.getBuiltinModule = (id: string) => (id === "node:zlib" ? undefined : original?.(id));
    vi.resetModules();
    return (await import("../src/body/content-encoding")).decodeBody;
  }

  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => "resolved",
      (error: WebhookVerificationError) => error.code,
    );

  it("decodes gzip and deflate with DecompressionStream", async () => {
    const decodeBody = await decoderWithoutZlib();
    const payload = new TextEncoder().encode('{"ok":true}');
    expect(new TextDecoder().decode(await decodeBody(gzipSync(payload), ["gzip"], 100))).toBe('{"ok":true}');
    expect(new TextDecoder().decode(await decodeBody(deflateSync(payload), ["deflate"], 100))).toBe('{"ok":true}');
  });

  it("stops a zip bomb at the limit", async () => {
    const decodeBody = await decoderWithoutZlib();
    const bomb = gzipSync(new Uint8Array(4 * 1024 * 1024));
    expect(await codeOf(decodeBody(bomb, ["gzip"], 64 * 1024))).toBe("payload_too_large");
  });

  it("answers 415 for br where the runtime's DecompressionStream lacks brotli", async () => {
    const decodeBody = await decoderWithoutZlib();
    let brotliSupported = true;
    try {
      new DecompressionStream("brotli" as CompressionFormat);
    } catch {
      brotliSupported = false;
    }
    const outcome = await codeOf(decodeBody(new Uint8Array([1, 2, 3]), ["br"], 100));
    expect(outcome).toBe(brotliSupported ? "invalid_payload" : "unsupported_encoding");
  });

  it("says that the runtime cannot decode a coding its DecompressionStream refuses (Next.js Edge)", async () => {
    const decodeBody = await decoderWithoutZlib();
    const refusing = class {
      constructor() {
        throw new TypeError("DecompressionStream is not supported in the Edge Runtime");
      }
    };
    vi.stubGlobal("DecompressionStream", refusing);
    try {
      const error = await decodeBody(gzipSync(new Uint8Array(8)), ["gzip"], 100).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "unsupported_encoding", status: 415 });
      expect((error as Error).message).toMatch(/^This runtime cannot decode Content-Encoding "gzip"/);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("reports corrupt data as invalid_payload", async () => {
    const decodeBody = await decoderWithoutZlib();
    expect(await codeOf(decodeBody(new TextEncoder().encode("garbage"), ["gzip"], 100))).toBe("invalid_payload");
  });
});
