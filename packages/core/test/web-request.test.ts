import { deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { afterFakeTime } from "../../../test/support/wait";
import type { WebhookVerificationError } from "../src/entries";
import { readRequestBody } from "../src/entries/adapter";

const FIX = "Read nothing before the webhook.";
const bytes = (text: string) => new TextEncoder().encode(text);

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request("http://127.0.0.1/webhooks", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

/** A stream that produces a chunk only when read (highWaterMark 0), counting the reads. */
function streamOf(chunks: Uint8Array[], onPull?: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream(
    {
      pull(controller) {
        onPull?.();
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "resolved",
    (error: WebhookVerificationError) => error.code,
  );
}

describe("readRequestBody", () => {
  it("returns the exact bytes, with a BOM and invalid UTF-8 left alone", async () => {
    const sent = Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b, 0xff, 0x7d);
    const read = await readRequestBody(post(sent), { maxBodyBytes: 100, consumedFix: FIX });
    expect(Array.from(read)).toEqual(Array.from(sent));
  });

  it("reads a request without a body as empty", async () => {
    const read = await readRequestBody(post(null), { maxBodyBytes: 100, consumedFix: FIX });
    expect(read.byteLength).toBe(0);
  });

  it("refuses a body already read (bodyUsed) or locked by a reader, with the fix", async () => {
    const used = post("{}");
    await used.text();
    const error = await readRequestBody(used, { maxBodyBytes: 100, consumedFix: FIX }).catch((e) => e);
    expect([error.code, error.status]).toEqual(["body_already_parsed", 500]);
    expect(error.message).toContain(FIX);
    const locked = post("{}");
    locked.body?.getReader();
    expect(await codeOf(readRequestBody(locked, { maxBodyBytes: 100, consumedFix: FIX }))).toBe("body_already_parsed");
    const lockedWithLength = post("{}", { "content-length": "2" });
    lockedWithLength.body?.getReader();
    const options = { maxBodyBytes: 100, consumedFix: FIX };
    expect(await codeOf(readRequestBody(lockedWithLength, options))).toBe("body_already_parsed");
  });

  it("refuses a Request built with a Content-Length smaller than its body", async () => {
    const chunks = Array.from({ length: 8 }, () => new Uint8Array(1024));
    const request = post(streamOf(chunks), { "content-length": "7" });
    expect(await codeOf(readRequestBody(request, { maxBodyBytes: 4096, consumedFix: FIX }))).toBe("payload_too_large");
  });

  it("reads a Request built by code no more than a chunk past the limit, whatever its Content-Length says", async () => {
    const chunk = 64 * 1024;
    let pulled = 0;
    const huge = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulled >= 64 * 1024 * 1024) return controller.close();
          pulled += chunk;
          controller.enqueue(new Uint8Array(chunk));
        },
      },
      { highWaterMark: 0 },
    );
    const request = post(huge, { "content-length": "10" });
    const options = { maxBodyBytes: 1024 * 1024, consumedFix: FIX };
    expect(await codeOf(readRequestBody(request, options))).toBe("payload_too_large");
    expect(pulled).toBeLessThanOrEqual(options.maxBodyBytes + chunk);
  });

  it("accepts a Request built by code whose body is longer than its Content-Length but within the limit", async () => {
    const read = await readRequestBody(post(bytes('{"a":1}'), { "content-length": "2" }), {
      maxBodyBytes: 100,
      consumedFix: FIX,
    });
    expect(new TextDecoder().decode(read)).toBe('{"a":1}');
  });

  it("reads a body without a Content-Length no more than a chunk past the limit", async () => {
    let pulls = 0;
    const chunks = Array.from({ length: 1000 }, () => new Uint8Array(1024));
    const request = post(streamOf(chunks, () => pulls++));
    expect(await codeOf(readRequestBody(request, { maxBodyBytes: 4096, consumedFix: FIX }))).toBe("payload_too_large");
    expect(pulls).toBeLessThanOrEqual(6);
  });

  it("answers body_truncated when the body stream fails mid-way (a client that went away)", async () => {
    let sent = false;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.error(new TypeError("terminated"));
        else controller.enqueue(bytes('{"type":'));
        sent = true;
      },
    });
    const request = post(failing, { "content-length": "40" });
    expect(await codeOf(readRequestBody(request, { maxBodyBytes: 100, consumedFix: FIX }))).toBe("body_truncated");
  });

  it("answers body_timeout when the body does not arrive within bodyTimeoutMs", async () => {
    const stalled = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const options = { maxBodyBytes: 100, bodyTimeoutMs: 30, consumedFix: FIX };
    // On the fake clock, moved past 30 ms and the eighth more a shared deadline may take.
    expect(await codeOf(afterFakeTime(40, () => readRequestBody(post(stalled), options)))).toBe("body_timeout");
  });

  it("refuses a declared Content-Length over the limit without pulling the stream", async () => {
    let pulls = 0;
    const request = post(
      streamOf([bytes("12345678901")], () => pulls++),
      { "content-length": "11" },
    );
    expect(await codeOf(readRequestBody(request, { maxBodyBytes: 10, consumedFix: FIX }))).toBe("payload_too_large");
    expect(pulls).toBe(0);
  });

  it("cancels a stream as soon as it passes the limit", async () => {
    let pulls = 0;
    const chunks = Array.from({ length: 100 }, () => bytes("123456"));
    const request = post(streamOf(chunks, () => pulls++));
    expect(await codeOf(readRequestBody(request, { maxBodyBytes: 10, consumedFix: FIX }))).toBe("payload_too_large");
    expect(pulls).toBeLessThan(5);
  });

  it("detects a body cut short of its Content-Length (a proxy's size cap)", async () => {
    const request = post(bytes("only part of it"), { "content-length": "5000" });
    expect(await codeOf(readRequestBody(request, { maxBodyBytes: 10_000, consumedFix: FIX }))).toBe("body_truncated");
  });

  it("refuses a body that decodes to more than a thousand times its wire size, however high maxBodyBytes", async () => {
    const bomb = gzipSync(new Uint8Array(4 * 1024 * 1024));
    expect(bomb.byteLength * 1000).toBeLessThan(4 * 1024 * 1024);
    const request = post(new Uint8Array(bomb), { "content-encoding": "gzip" });
    const error = await readRequestBody(request, { maxBodyBytes: 64 * 1024 * 1024, consumedFix: FIX }).catch((e) => e);
    expect([error.code, error.status]).toEqual(["payload_too_large", 413]);
    expect(error.message).toMatch(/decompression bomb/);
    const json = bytes(
      JSON.stringify({ type: "message.sent", items: Array.from({ length: 2000 }, (_, n) => ({ n })) }),
    );
    const legit = post(new Uint8Array(gzipSync(json)), { "content-encoding": "gzip" });
    const read = await readRequestBody(legit, { maxBodyBytes: 1024 * 1024, consumedFix: FIX });
    expect(read.byteLength).toBe(json.byteLength);
  });

  it("undoes gzip, deflate and a chain of codings", async () => {
    const payload = bytes('{"type":"message.sent"}');
    const options = { maxBodyBytes: 1000, consumedFix: FIX };
    for (const [encoding, encoded] of [
      ["gzip", gzipSync(payload)],
      ["x-gzip", gzipSync(payload)],
      ["deflate", deflateSync(payload)],
      ["deflate, gzip", gzipSync(deflateSync(payload))],
      ["identity", payload],
    ] as const) {
      const read = await readRequestBody(post(encoded, { "content-encoding": encoding }), options);
      expect(new TextDecoder().decode(read), encoding).toBe('{"type":"message.sent"}');
    }
  });

  it("refuses an unknown coding with 415 before reading, and undecodable data with 400", async () => {
    const options = { maxBodyBytes: 1000, consumedFix: FIX };
    const unknown = readRequestBody(post(bytes("x"), { "content-encoding": "zstd" }), options);
    expect(await codeOf(unknown)).toBe("unsupported_encoding");
    const garbage = readRequestBody(post(bytes("not gzip"), { "content-encoding": "gzip" }), options);
    expect(await codeOf(garbage)).toBe("invalid_payload");
  });
});
