import { createReceiver, sign } from "@tidings/core";
import { Hono } from "hono";
import { validator } from "hono/validator";
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../src";

const SECRET = "whsec_fetch";
const body = JSON.stringify({
  id: "evt_f",
  type: "message.sent",
  data: { id: "msg_f", status: "sent", channel: "push" },
});

function delivery(init: { method?: string; payload?: string } = {}): Request {
  const payload = init.payload ?? body;
  return new Request("http://127.0.0.1/webhooks", {
    method: init.method ?? "POST",
    headers: { "content-type": "application/json", "service-signature": sign(payload, SECRET) },
    ...(init.method === "GET" ? {} : { body: payload }),
  });
}

describe("createFetchHandler", () => {
  it("turns a signed Request into a 200 JSON Response and runs the typed handler", async () => {
    const seen: string[] = [];
    const receiver = createReceiver({ secret: SECRET }).on("message.sent", (event) => {
      seen.push(event.data.channel);
    });
    const response = await createFetchHandler(receiver)(delivery());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ received: true });
    expect(seen).toEqual(["push"]);
  });

  it("answers errors as JSON with the status of the error", async () => {
    const handle = createFetchHandler(createReceiver({ secret: SECRET }));
    const tampered = await handle(
      new Request("http://127.0.0.1/webhooks", {
        method: "POST",
        headers: { "service-signature": sign(body, SECRET) },
        body: body.replace("push", "sms"),
      }),
    );
    expect(tampered.status).toBe(400);
    expect((await tampered.json()).error.code).toBe("signature_mismatch");
    const get = await handle(delivery({ method: "GET" }));
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
  });

  it("names Hono's json validator when it read the body first", async () => {
    const receiver = createReceiver({ secret: SECRET, logger: { error() {} } });
    const handle = createFetchHandler(receiver);
    const app = new Hono().post(
      "/webhooks",
      validator("json", (value) => value),
      (c) => handle(c.req.raw),
    );
    const response = await app.request(delivery());
    expect(response.status).toBe(500);
    const { error } = await response.json();
    expect(error.code).toBe("body_already_parsed");
    expect(error.message).toContain("validator('json')");
  });
});
