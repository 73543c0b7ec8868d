import { describe, expect, it } from "vitest";
import tidings from "../src/index";
import { delivery, errorOf, eventBody, newApp, recordingReceiver } from "./helpers";

describe("the plugin in an app", () => {
  it("serves two webhook paths with two receivers, each with its own secret and body limit", async () => {
    const sms = recordingReceiver({ secret: "whsec_sms", maxBodyBytes: 4096 });
    const email = recordingReceiver({ secret: "whsec_email", maxBodyBytes: 1024 });
    const app = newApp();
    await app.register(tidings, { receiver: sms.receiver, path: "/webhooks/sms" });
    await app.register(tidings, { receiver: email.receiver, path: "/webhooks/email" });
    const body = Buffer.from(JSON.stringify({ type: "message.sent", pad: "x".repeat(2048) }));

    expect((await app.inject(delivery("/webhooks/sms", body, { secret: "whsec_sms" }))).statusCode).toBe(200);
    const tooLarge = await app.inject(delivery("/webhooks/email", body, { secret: "whsec_email" }));
    expect([tooLarge.statusCode, errorOf(tooLarge)?.code]).toEqual([413, "payload_too_large"]);
    expect((await app.inject(delivery("/webhooks/email", eventBody(), { secret: "whsec_email" }))).statusCode).toBe(
      200,
    );
    const crossed = await app.inject(delivery("/webhooks/email", eventBody(), { secret: "whsec_sms" }));
    expect(errorOf(crossed)?.code).toBe("signature_mismatch");
    expect([sms.seen.length, email.seen.length]).toEqual([1, 1]);
    expect([sms.errors, email.errors]).toEqual([[], ["payload_too_large", "signature_mismatch"]]);
  });

  it("runs the app's onRequest and onSend hooks for the webhook route, and sends our JSON unchanged", async () => {
    const { receiver } = recordingReceiver();
    const app = newApp();
    const visited: string[] = [];
    const sent: unknown[] = [];
    app.addHook("onRequest", async (request) => {
      visited.push(request.url);
    });
    app.addHook("onSend", async (_request, reply, payload) => {
      sent.push([reply.getHeader("content-type"), payload]);
    });
    await app.register(tidings, { receiver, path: "/webhooks" });

    const response = await app.inject(delivery("/webhooks", eventBody()));
    expect(response.body).toBe('{"received":true}');
    expect(visited).toEqual(["/webhooks"]);
    expect(sent).toEqual([["application/json; charset=utf-8", '{"received":true}']]);
  });

  it("leaves errors that are not about the body to the app's error handler", async () => {
    const { receiver, errors } = recordingReceiver();
    const app = newApp();
    app.setErrorHandler(async (error: Error, _request, reply) => reply.code(401).send({ appSays: error.message }));
    app.addHook("onRequest", async () => {
      throw new Error("no token");
    });
    await app.register(tidings, { receiver, path: "/webhooks" });

    const response = await app.inject(delivery("/webhooks", eventBody()));
    expect([response.statusCode, response.json()]).toEqual([401, { appSays: "no token" }]);
    expect(errors).toEqual([]);
  });

  it("marks its route `decompress: false`, so @fastify/compress leaves Content-Encoding to the receiver", async () => {
    const { receiver } = recordingReceiver();
    const app = newApp();
    const decompress: unknown[] = [];
    // @fastify/compress reads this route option from an onRoute hook and skips its preParsing inflate when false.
    app.addHook("onRoute", (route) => {
      decompress.push((route as { decompress?: unknown }).decompress);
    });
    await app.register(tidings, { receiver, path: "/webhooks" });
    expect(decompress).toEqual([false]);
  });
});

describe("the plugin's exports", () => {
  it("is the same plugin as a named export and as the default", async () => {
    const { default: byDefault, tidingsPlugin } = await import("../src/index");
    expect(tidingsPlugin).toBe(byDefault);
    const { receiver, seen } = recordingReceiver();
    const app = newApp();
    await app.register(tidingsPlugin, { receiver, path: "/webhooks" });
    expect((await app.inject(delivery("/webhooks", eventBody()))).statusCode).toBe(200);
    expect(seen).toHaveLength(1);
  });
});
