import { describe, expect, it } from "vitest";
import { afterFakeTime } from "../../../test/support/wait";
import { constructEvent, sign, verify, WebhookVerificationError } from "../src/entries";
import { readRequestBody } from "../src/entries/adapter";
import { STATUS_BY_CODE, type WebhookErrorCode } from "../src/errors";

const SECRET = "whsec_codes";
const now = Math.floor(Date.now() / 1000);
const options = { maxBodyBytes: 16, consumedFix: "Mount it first." };
const post = (body: string | ReadableStream, headers: Record<string, string> = {}) =>
  new Request("http://127.0.0.1/", { method: "POST", body, headers, duplex: "half" } as RequestInit);

/** One real producer per code: every code the API documents is reachable and asserted, not just "throws". */
const producers: Record<WebhookErrorCode, () => unknown> = {
  missing_header: () => verify("{}", undefined, SECRET),
  malformed_header: () => verify("{}", "t=12,t=13", SECRET),
  no_supported_signature: () => verify("{}", "t=12,v0=abc", SECRET),
  signature_mismatch: () => verify("{}", sign("{ }", SECRET), SECRET),
  timestamp_too_old: () => verify("{}", sign("{}", SECRET, { timestamp: now - 3600 }), SECRET),
  timestamp_in_future: () => verify("{}", sign("{}", SECRET, { timestamp: now + 3600 }), SECRET),
  invalid_payload: () => constructEvent("nope", sign("nope", SECRET), SECRET),
  payload_too_large: () => readRequestBody(post("x".repeat(17)), options),
  body_already_parsed: () => verify({ parsed: true }, sign("{}", SECRET), SECRET),
  body_truncated: () => readRequestBody(post("short", { "content-length": "9" }), options),
  unsupported_encoding: () => readRequestBody(post("x", { "content-encoding": "compress" }), options),
  body_timeout: () =>
    afterFakeTime(30, () =>
      readRequestBody(post(new ReadableStream({ pull: () => new Promise(() => {}) })), {
        ...options,
        bodyTimeoutMs: 20,
      }),
    ),
  body_too_slow: () =>
    afterFakeTime(30, () =>
      readRequestBody(post(new ReadableStream({ pull: () => new Promise(() => {}) })), {
        ...options,
        bodyTimeoutMs: 1000,
        bodyRateGraceMs: 20,
        minBodyBytesPerSecond: 1,
      }),
    ),
};

async function errorFrom(produce: () => unknown): Promise<unknown> {
  try {
    await produce();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("every WebhookVerificationError code", () => {
  it("has a producer in this table", () => {
    const receiverOwn = [
      "accepted",
      "duplicate",
      "stale",
      "delivery_in_progress",
      "handler_failed",
      "handler_timeout",
      "internal_error",
      "method_not_allowed",
      "object_busy",
      "overloaded",
      "secret_unavailable",
      "store_full",
      "store_unavailable",
      "unknown_endpoint",
    ];
    expect(Object.keys(producers).sort()).toEqual(
      Object.keys(STATUS_BY_CODE)
        .filter((code) => !receiverOwn.includes(code))
        .sort(),
    );
  });

  for (const [code, produce] of Object.entries(producers)) {
    it(`${code} is produced with status ${STATUS_BY_CODE[code as WebhookErrorCode]}`, async () => {
      const error = await errorFrom(produce);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect((error as WebhookVerificationError).code).toBe(code);
      expect((error as WebhookVerificationError).status).toBe(STATUS_BY_CODE[code as WebhookErrorCode]);
      expect((error as Error).name).toBe("WebhookVerificationError");
    });
  }
});

describe("WebhookVerificationError across copies of the package", () => {
  it("is recognised by instanceof when another copy (the other module format) built it", async () => {
    // A query makes Vite load the module a second time: a second class, as a second build of the package would be.
    const copy = (await import("../src/errors?copy" as string)) as typeof import("../src/errors");
    expect(copy.WebhookVerificationError).not.toBe(WebhookVerificationError);
    const other = new copy.WebhookVerificationError("signature_mismatch", "x");
    expect(other).toBeInstanceOf(WebhookVerificationError);
    expect(new WebhookVerificationError("missing_header", "y")).toBeInstanceOf(copy.WebhookVerificationError);
    expect(Object.assign(new Error("y"), { code: "signature_mismatch" })).not.toBeInstanceOf(WebhookVerificationError);
    expect((null as unknown as object) instanceof WebhookVerificationError).toBe(false);
  });
});
