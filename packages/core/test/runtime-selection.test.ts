import { afterEach, describe, expect, it, vi } from "vitest";
import { BODY, clock, header, NOW_SECONDS, SECRET } from "./fixtures";

describe("crypto path selection", () => {
  const proc = process as { getBuiltinModule?: unknown };
  const original = proc.getBuiltinModule;

  afterEach(() => {
    proc.getBuiltinModule = original;
    vi.resetModules();
  });

  it("uses node:crypto where the runtime provides it", async () => {
    vi.resetModules();
    const { pickMatcher } = await import("../src/verification/verify-async");
    const { matchWithWebCrypto } = await import("../src/crypto/web-crypto");
    expect(pickMatcher()).not.toBe(matchWithWebCrypto);
  });

  it("falls back to Web Crypto where node:crypto is missing, and sync verify says to use verifyAsync", async () => {
    const signed = header();
    proc.getBuiltinModule = undefined;
    vi.resetModules();
    const { pickMatcher, verifyAsync } = await import("../src/verification/verify-async");
    const { matchWithWebCrypto } = await import("../src/crypto/web-crypto");
    const { verify } = await import("../src/verification/verify");
    expect(pickMatcher()).toBe(matchWithWebCrypto);
    await expect(verifyAsync(BODY, signed, SECRET, clock)).resolves.toEqual({ timestamp: NOW_SECONDS, secretIndex: 0 });
    expect(() => verify(BODY, signed, SECRET, clock)).toThrow(/use verifyAsync\(\)/);
  });

  it("falls back to Web Crypto where process.getBuiltinModule throws (Next.js Edge sandbox)", async () => {
    const signed = header();
    proc.getBuiltinModule = () => {
      throw new Error("A Node.js API is used (process.getBuiltinModule) which is not supported in the Edge Runtime.");
    };
    vi.resetModules();
    const { pickMatcher, verifyAsync } = await import("../src/verification/verify-async");
    const { matchWithWebCrypto } = await import("../src/crypto/web-crypto");
    expect(pickMatcher()).toBe(matchWithWebCrypto);
    await expect(verifyAsync(BODY, signed, SECRET, clock)).resolves.toEqual({ timestamp: NOW_SECONDS, secretIndex: 0 });
  });
});
