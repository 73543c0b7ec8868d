import { createServer } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { describe, expect, it } from "vitest";
import { isNodeFramedRequest } from "../src/body/node-framed-request";
import { readRequestBody } from "../src/entries/adapter";
import { post, whileListening } from "./node-server";

const FIX = "Read nothing before the webhook.";

/** A real @hono/node-server listener on loopback; `handle` gets each Request it builds. */
async function withHonoServer(handle: (request: Request) => Promise<Response>, run: (port: number) => Promise<void>) {
  // overrideGlobalObjects: false keeps this file's other Requests native.
  await whileListening(createServer(getRequestListener(handle, { overrideGlobalObjects: false })), run);
}

describe("isNodeFramedRequest", () => {
  it("recognises the Request @hono/node-server builds over Node's request", async () => {
    const seen: boolean[] = [];
    await withHonoServer(
      async (request) => {
        seen.push(isNodeFramedRequest(request));
        return new Response("ok");
      },
      async (port) => {
        await post(port, { "content-length": "2" }, [new TextEncoder().encode("{}")]);
      },
    );
    expect(seen).toEqual([true]);
  });

  it("does not recognise a Request built by code, or a subclass with its own arrayBuffer", () => {
    const init = { method: "POST", body: "{}" };
    class Subclass extends Request {}
    class OwnReader extends Request {
      override arrayBuffer(): Promise<ArrayBuffer> {
        return Promise.resolve(new ArrayBuffer(0));
      }
    }
    for (const request of [
      new Request("http://127.0.0.1/", init),
      new Subclass("http://127.0.0.1/", init),
      new OwnReader("http://127.0.0.1/", init),
    ]) {
      expect(isNodeFramedRequest(request)).toBe(false);
    }
  });
});

describe("readRequestBody on @hono/node-server", () => {
  it("reads the exact bytes, and answers body_truncated to a client that leaves before Content-Length", async () => {
    const outcomes: unknown[] = [];
    let bothRead: () => void = () => {};
    const read = new Promise<void>((resolve) => {
      bothRead = resolve;
    });
    let arrived: () => void = () => {};
    const second = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    await withHonoServer(
      async (request) => {
        if (outcomes.length === 1) arrived();
        const reading = readRequestBody(request, { maxBodyBytes: 1000, consumedFix: FIX });
        outcomes.push(
          await reading.then(
            (bytes) => Array.from(bytes),
            (error: { code: string }) => error.code,
          ),
        );
        if (outcomes.length === 2) bothRead();
        return new Response("ok");
      },
      async (port) => {
        await post(port, { "content-length": "4" }, [Uint8Array.of(0xef, 0xbb, 0xbf, 0xff)]);
        await post(port, { "content-length": "100" }, [new Uint8Array(10)], { abortWhen: second });
        await read;
      },
    );
    expect(outcomes).toEqual([[0xef, 0xbb, 0xbf, 0xff], "body_truncated"]);
  });
});
