import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { webhookHandler } from "../src/handler";
import tidings from "../src/index";
import { delivery, errorOf, eventBody, newApp, recordingReceiver } from "./helpers";

describe("the webhook body", () => {
  it("reaches the route without a Content-Type", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = newApp();
    await app.register(tidings, { receiver, path: "/webhooks" });
    const request = delivery("/webhooks", eventBody());
    delete (request.headers as Record<string, string>)["content-type"];
    const response = await app.inject(request);
    expect(response.statusCode).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it("is verified over its decoded bytes when it arrives gzip-encoded", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = newApp();
    await app.register(tidings, { receiver, path: "/webhooks" });
    const body = eventBody();
    const response = await app.inject(
      delivery("/webhooks", body, { payload: gzipSync(body), headers: { "content-encoding": "gzip" } }),
    );
    expect(response.statusCode).toBe(200);
    expect(Buffer.from(seen[0]?.verifiedBody ?? []).equals(body)).toBe(true);
  });

  it("may be as large as maxBodyBytes, past Fastify's default 1 MiB bodyLimit", async () => {
    const { receiver, seen } = recordingReceiver({ maxBodyBytes: 2 * 1024 * 1024 });
    const app = newApp();
    await app.register(tidings, { receiver, path: "/webhooks" });
    const body = Buffer.from(JSON.stringify({ type: "message.sent", pad: "x".repeat(1536 * 1024) }));
    const response = await app.inject(delivery("/webhooks", body));
    expect(response.statusCode).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it("over maxBodyBytes is refused by Fastify's bodyLimit with our 413 payload_too_large, heard by onError", async () => {
    const { receiver, seen, errors } = recordingReceiver({ maxBodyBytes: 1024 });
    const app = newApp();
    await app.register(tidings, { receiver, path: "/webhooks" });
    const body = Buffer.from(JSON.stringify({ type: "message.sent", pad: "x".repeat(2048) }));
    const response = await app.inject(delivery("/webhooks", body));
    expect(response.statusCode).toBe(413);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(errorOf(response)).toMatchObject({ code: "payload_too_large", message: expect.stringContaining("1024") });
    expect(errors).toEqual(["payload_too_large"]);
    expect(seen).toHaveLength(0);
  });

  it("that does not match its Content-Length is answered 400 body_truncated, heard by onError", async () => {
    const { receiver, seen, errors } = recordingReceiver();
    const app = newApp();
    await app.register(tidings, { receiver, path: "/webhooks" });
    const body = eventBody();
    const response = await app.inject(
      delivery("/webhooks", body, { headers: { "content-length": String(body.byteLength + 10) } }),
    );
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toMatchObject({
      code: "body_truncated",
      message: expect.stringContaining("Content-Length"),
    });
    expect(errors).toEqual(["body_truncated"]);
    expect(seen).toHaveLength(0);
  });

  it("parsed by another scope's parser is refused with 500 body_already_parsed naming the Fastify fix", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = newApp();
    app.post("/webhooks", webhookHandler(receiver));
    const response = await app.inject(delivery("/webhooks", eventBody()));
    expect(response.statusCode).toBe(500);
    expect(errorOf(response)).toMatchObject({
      code: "body_already_parsed",
      message: expect.stringContaining("app.register(tidings"),
    });
    expect(seen).toHaveLength(0);
  });

  it("read by a root onRequest hook is refused at once with 500 body_already_parsed, instead of waiting for ever", async () => {
    const { receiver, seen, errors } = recordingReceiver();
    const app = newApp();
    app.addHook("onRequest", async (request) => {
      for await (const _chunk of request.raw) {
        // an upstream hook that drains the stream, e.g. to log or mirror the body
      }
    });
    await app.register(tidings, { receiver, path: "/webhooks" });
    const response = await app.inject(delivery("/webhooks", eventBody()));
    expect([response.statusCode, errorOf(response)?.code]).toEqual([500, "body_already_parsed"]);
    expect(errors).toEqual(["body_already_parsed"]);
    expect(seen).toHaveLength(0);
  });
});
