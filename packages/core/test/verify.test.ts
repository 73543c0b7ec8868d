import { describe, expect, it } from "vitest";
import {
  DEFAULTS,
  safeVerify,
  safeVerifyAsync,
  type VerifyOptions,
  verify,
  verifyAsync,
  WebhookVerificationError,
} from "../src/entries";
import { BODY, clock, header, NOW_SECONDS, SECRET, v1Of } from "./fixtures";

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).code;
  }
  throw new Error("expected a WebhookVerificationError");
}

describe("verify", () => {
  it("accepts a delivery signed with the endpoint secret and reports the timestamp", () => {
    expect(verify(BODY, header(), SECRET, clock)).toEqual({ timestamp: NOW_SECONDS, secretIndex: 0 });
  });

  it("accepts Buffer, Uint8Array and ArrayBuffer payloads of the same bytes", () => {
    const bytes = new TextEncoder().encode(BODY);
    for (const payload of [Buffer.from(BODY), bytes, bytes.buffer]) {
      expect(verify(payload, header(), SECRET, clock).secretIndex).toBe(0);
    }
  });

  it("rejects a parsed body with body_already_parsed and tells how to fix it", () => {
    for (const parsed of [JSON.parse(BODY), undefined, null, 42]) {
      const result = safeVerify(parsed, header(), SECRET, clock);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.error.code).toBe("body_already_parsed");
      expect(result.error.status).toBe(500);
      expect(result.error.message).toMatch(/raw/);
    }
  });

  it("rejects a tampered body with signature_mismatch", () => {
    expect(codeOf(() => verify(`${BODY} `, header(), SECRET, clock))).toBe("signature_mismatch");
  });

  it("rejects the wrong secret with signature_mismatch", () => {
    expect(codeOf(() => verify(BODY, header(BODY, "another secret"), SECRET, clock))).toBe("signature_mismatch");
  });

  it("signs the t digits exactly as sent", () => {
    const signed = header(BODY, SECRET, NOW_SECONDS);
    const zeroPadded = signed.replace(`t=${NOW_SECONDS}`, `t=0${NOW_SECONDS}`);
    expect(codeOf(() => verify(BODY, zeroPadded, SECRET, clock))).toBe("signature_mismatch");
  });

  it("rejects missing headers with missing_header", () => {
    for (const missing of [undefined, null, "", "   "]) {
      expect(codeOf(() => verify(BODY, missing, SECRET, clock))).toBe("missing_header");
    }
  });

  it("takes the header as Node's req.headers holds it: a string, undefined, or the values of a repeated header", () => {
    const nodeHeaders: import("node:http").IncomingHttpHeaders = { "service-signature": header() };
    expect(verify(BODY, nodeHeaders["service-signature"], SECRET, clock).timestamp).toBe(NOW_SECONDS);
    const [t, v1] = header().split(",") as [string, string];
    expect(verify(BODY, [t, v1], SECRET, clock).timestamp).toBe(NOW_SECONDS);
    expect(codeOf(() => verify(BODY, [header(), header()], SECRET, clock))).toBe("malformed_header");
    expect(codeOf(() => verify(BODY, [], SECRET, clock))).toBe("missing_header");
  });

  it("rejects a header without t with malformed_header", () => {
    expect(codeOf(() => verify(BODY, `v1=${v1Of(header())}`, SECRET, clock))).toBe("malformed_header");
  });

  it("rejects a header whose only v1 is not 64 lowercase hex with no_supported_signature", () => {
    const upper = `t=${NOW_SECONDS},v1=${v1Of(header()).toUpperCase()}`;
    expect(codeOf(() => verify(BODY, upper, SECRET, clock))).toBe("no_supported_signature");
    expect(codeOf(() => verify(BODY, `t=${NOW_SECONDS},v0=abc`, SECRET, clock))).toBe("no_supported_signature");
  });

  it("accepts any of several v1 signatures (the sender rotating its secret)", () => {
    const valid = v1Of(header());
    const other = v1Of(header(BODY, "old sender secret"));
    expect(verify(BODY, `t=${NOW_SECONDS},v1=${other},v1=${valid}`, SECRET, clock).secretIndex).toBe(0);
    expect(verify(BODY, `v1=${valid} , t=${NOW_SECONDS}, v0=legacy`, SECRET, clock).secretIndex).toBe(0);
  });

  it("accepts any configured secret and reports which one matched (our side rotating)", () => {
    const signedWithNew = header(BODY, "new secret");
    expect(verify(BODY, signedWithNew, ["old secret", "new secret"], clock)).toEqual({
      timestamp: NOW_SECONDS,
      secretIndex: 1,
    });
    expect(verify(BODY, header(BODY, "old secret"), ["old secret", "new secret"], clock).secretIndex).toBe(0);
  });

  it("throws TypeError for an empty secret or an empty secret list, before looking at the delivery", () => {
    for (const secret of ["", [], ["ok", ""]] as const) {
      expect(() => verify(BODY, header(), secret, clock)).toThrow(TypeError);
      expect(() => safeVerify(BODY, undefined, secret, clock)).toThrow(TypeError);
    }
  });

  describe("tolerance", () => {
    const at = (seconds: number): VerifyOptions => ({ now: () => seconds * 1000 });

    it("defaults to 300 seconds each way", () => {
      expect(DEFAULTS.toleranceSeconds).toBe(300);
      expect(verify(BODY, header(), SECRET, at(NOW_SECONDS + 300)).timestamp).toBe(NOW_SECONDS);
      expect(verify(BODY, header(), SECRET, at(NOW_SECONDS - 300)).timestamp).toBe(NOW_SECONDS);
    });

    it("rejects an older delivery with timestamp_too_old", () => {
      expect(codeOf(() => verify(BODY, header(), SECRET, at(NOW_SECONDS + 301)))).toBe("timestamp_too_old");
    });

    it("rejects a delivery from the future with timestamp_in_future", () => {
      expect(codeOf(() => verify(BODY, header(), SECRET, at(NOW_SECONDS - 301)))).toBe("timestamp_in_future");
    });

    it("honours a custom tolerance", () => {
      const options = { ...at(NOW_SECONDS + 10), toleranceSeconds: 5 };
      expect(codeOf(() => verify(BODY, header(), SECRET, options))).toBe("timestamp_too_old");
      expect(verify(BODY, header(), SECRET, { ...options, toleranceSeconds: 10 }).timestamp).toBe(NOW_SECONDS);
    });

    it("uses the real clock by default", () => {
      const now = Math.floor(Date.now() / 1000);
      expect(verify(BODY, header(BODY, SECRET, now), SECRET).timestamp).toBe(now);
    });

    it("throws TypeError for a negative or non-finite tolerance", () => {
      for (const toleranceSeconds of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(() => verify(BODY, header(), SECRET, { ...clock, toleranceSeconds })).toThrow(TypeError);
      }
    });

    it("checks the signature before the clock, so unsigned requests learn nothing about our time", () => {
      const stale = header(BODY, "not our secret", NOW_SECONDS - 10_000);
      expect(codeOf(() => verify(BODY, stale, SECRET, clock))).toBe("signature_mismatch");
    });
  });

  it("never puts the expected signature or the secret in an error message", () => {
    const expected = v1Of(header(`${BODY}x`));
    const errors = [
      safeVerify(`${BODY}x`, header(), SECRET, clock),
      safeVerify(BODY, header(), SECRET, { now: () => 0 }),
      safeVerify(BODY, "t=1", SECRET, clock),
    ];
    for (const result of errors) {
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.error.message).not.toContain(expected);
      expect(result.error.message).not.toContain(SECRET);
    }
  });
});

describe("safeVerify and the async twins", () => {
  it("safeVerify returns ok with the result", () => {
    expect(safeVerify(BODY, header(), SECRET, clock)).toEqual({ ok: true, timestamp: NOW_SECONDS, secretIndex: 0 });
  });

  it("verifyAsync resolves like verify and rejects with the same code", async () => {
    await expect(verifyAsync(BODY, header(), SECRET, clock)).resolves.toEqual({
      timestamp: NOW_SECONDS,
      secretIndex: 0,
    });
    await expect(verifyAsync("tampered", header(), SECRET, clock)).rejects.toMatchObject({
      code: "signature_mismatch",
    });
    await expect(verifyAsync(BODY, header(), "", clock)).rejects.toThrow(TypeError);
  });

  it("safeVerifyAsync resolves to ok or to the error", async () => {
    await expect(safeVerifyAsync(BODY, header(), SECRET, clock)).resolves.toEqual({
      ok: true,
      timestamp: NOW_SECONDS,
      secretIndex: 0,
    });
    const failed = await safeVerifyAsync(BODY, null, SECRET, clock);
    expect(failed.ok === false && failed.error.code).toBe("missing_header");
  });
});
