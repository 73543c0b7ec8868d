import { describe, expect, it } from "vitest";
import tidings from "../src/index";
import { delivery, eventBody, newApp, recordingReceiver } from "./helpers";

describe("the plugin's own scope", () => {
  it("gives the webhook the exact bytes while the app's other routes keep Fastify's JSON parsing", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = newApp();
    const echo = async (request: { body: unknown }) => ({ isObject: request.body?.constructor === Object });
    app.post("/before", echo);
    await app.register(tidings, { receiver, path: "/webhooks" });
    app.post("/after", echo);

    const body = Buffer.from(`{ "type": "message.delivered",\n  "id": "evt_spaced" }`);
    const webhook = await app.inject(delivery("/webhooks", body));
    expect(webhook.statusCode).toBe(200);
    expect(Buffer.from(seen[0]?.verifiedBody ?? []).equals(body)).toBe(true);

    for (const url of ["/before", "/after"]) {
      const other = await app.inject({ method: "POST", url, payload: { hello: "world" } });
      expect(other.json(), url).toEqual({ isObject: true });
    }
  });

  it("replaces a JSON parser the app installed itself, inside its scope only", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = newApp();
    app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, text, done) => {
      done(null, { parsedByApp: String(text).length });
    });
    app.post("/other", async (request) => request.body);
    await app.register(tidings, { receiver, path: "/webhooks" });

    const body = eventBody();
    expect((await app.inject(delivery("/webhooks", body))).statusCode).toBe(200);
    expect(Buffer.from(seen[0]?.verifiedBody ?? []).equals(body)).toBe(true);
    const other = await app.inject({ method: "POST", url: "/other", payload: { a: 1 } });
    expect(other.json()).toEqual({ parsedByApp: 7 });
  });
});
