import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createReceiver, sign } from "../src/entries";
import { handleNodeRequest, readNodeBody } from "../src/entries/node";
import { post, withServer } from "./node-server";
import { event, SECRET } from "./receiver-fixtures";

const FIX = "Mount the webhook first.";
const bytes = (text: string) => new TextEncoder().encode(text);

describe("readNodeBody on a real Node request", () => {
  it("returns the exact bytes, invalid UTF-8 and all, without a Content-Length (chunked)", async () => {
    const sent = Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b, 0xff, 0x7d);
    await withServer(
      async (req) => Array.from(await readNodeBody(req, { maxBodyBytes: 100, consumedFix: FIX })),
      async (port) => {
        const response = await post(port, { "transfer-encoding": "chunked" }, [sent.slice(0, 2), sent.slice(2)]);
        expect(JSON.parse(response.body).value).toEqual(Array.from(sent));
      },
    );
  });

  it("refuses at once a body whose Content-Length is over the limit, before reading it", async () => {
    let readBeforeRefusing: boolean | undefined;
    await withServer(
      (req) =>
        readNodeBody(req, { maxBodyBytes: 10, consumedFix: FIX }).finally(() => {
          readBeforeRefusing = req.readableDidRead;
        }),
      async (port) => {
        const response = await post(port, { "content-length": "11" }, [bytes("12345678901")]);
        expect([response.status, JSON.parse(response.body).code]).toEqual([413, "payload_too_large"]);
      },
    );
    expect(readBeforeRefusing).toBe(false);
  });

  it("stops reading a chunked body as soon as it passes the limit", async () => {
    await withServer(
      (req) => readNodeBody(req, { maxBodyBytes: 10, consumedFix: FIX }),
      async (port) => {
        const response = await post(port, { "transfer-encoding": "chunked" }, [bytes("123456"), bytes("789012")]);
        expect([response.status, JSON.parse(response.body).code]).toEqual([413, "payload_too_large"]);
      },
    );
  });

  it("explains, without hanging, a stream another middleware already read", async () => {
    await withServer(
      async (req) => {
        for await (const _chunk of req) {
          // a body parser that got there first
        }
        return readNodeBody(req, { maxBodyBytes: 100, consumedFix: FIX });
      },
      async (port) => {
        const response = await post(port, {}, [bytes("{}")]);
        expect([response.status, JSON.parse(response.body).code]).toEqual([500, "body_already_parsed"]);
      },
    );
  });

  it("refuses a stream that was switched to text (setEncoding)", async () => {
    await withServer(
      async (req) => {
        req.setEncoding("utf8");
        return readNodeBody(req, { maxBodyBytes: 100, consumedFix: FIX });
      },
      async (port) => {
        const response = await post(port, {}, [bytes("{}")]);
        expect(JSON.parse(response.body).code).toBe("body_already_parsed");
      },
    );
  });

  it("reports a client that disconnects mid-body as body_truncated", async () => {
    let outcome: unknown;
    let settled: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      settled = resolve;
    });
    let arrived: () => void = () => {};
    const reading = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    await withServer(
      async (req) => {
        arrived();
        try {
          await readNodeBody(req, { maxBodyBytes: 100, consumedFix: FIX });
        } catch (error) {
          outcome = (error as { code: string }).code;
        }
        settled();
      },
      async (port) => {
        await post(port, { "content-length": "50" }, [bytes("only twenty bytes...")], { abortWhen: reading });
        await done;
      },
    );
    expect(outcome).toBe("body_truncated");
  });

  it("undoes gzip with the limit on the decoded size", async () => {
    const payload = bytes(JSON.stringify({ pad: "x".repeat(500) }));
    await withServer(
      async (req) => (await readNodeBody(req, { maxBodyBytes: 600, consumedFix: FIX })).byteLength,
      async (port) => {
        const ok = await post(port, { "content-encoding": "gzip" }, [gzipSync(payload)]);
        expect(JSON.parse(ok.body).value).toBe(payload.byteLength);
      },
    );
    await withServer(
      (req) => readNodeBody(req, { maxBodyBytes: 100, consumedFix: FIX }),
      async (port) => {
        const bomb = await post(port, { "content-encoding": "gzip" }, [gzipSync(payload)]);
        expect([bomb.status, JSON.parse(bomb.body).code]).toEqual([413, "payload_too_large"]);
      },
    );
  });
});

describe("handleNodeRequest on a real Node request", () => {
  it("reads req.headers once per delivery (on Express's requests each property read is slow)", async () => {
    const receiver = createReceiver({ secret: SECRET });
    let reads = 0;
    const body = bytes(JSON.stringify(event()));
    await withServer(
      async (req) => {
        const headers = req.headers;
        Object.defineProperty(req, "headers", {
          get: () => {
            reads++;
            return headers;
          },
        });
        return (await handleNodeRequest(receiver, req, { consumedFix: FIX })).status;
      },
      async (port) => {
        const response = await post(port, { "service-signature": sign(body, SECRET) }, [body]);
        expect(JSON.parse(response.body).value).toBe(200);
      },
    );
    expect(reads).toBe(1);
  });
});
