import { H3, readBody, serve } from "h3";
import { afterEach, describe, expect, it } from "vitest";
import { defineWebhookHandler } from "../src/index";
import { deliveryBody, post, recordingReceiver } from "./deliveries";

const servers: { close(closeAll?: boolean): Promise<void> }[] = [];
afterEach(() => Promise.all(servers.splice(0).map((server) => server.close(true))));

async function listen(app: H3): Promise<string> {
  const server = serve(app, { port: 0, hostname: "127.0.0.1", silent: true });
  servers.push(server);
  await server.ready();
  return `${server.url}webhooks`;
}

describe("defineWebhookHandler on h3 v2 (srvx on Node)", () => {
  it("verifies the exact bytes and dispatches the event", async () => {
    const { receiver, seen } = recordingReceiver();
    const url = await listen(new H3().post("/webhooks", defineWebhookHandler(receiver)));
    const body = deliveryBody();
    const response = await post(url, body);
    expect([response.status, response.json]).toEqual([200, { received: true }]);
    expect(Buffer.from(seen[0]?.verifiedBody ?? []).equals(Buffer.from(body))).toBe(true);
  });

  it("answers 500 body_already_parsed, with the fix, when a middleware ran readBody() first", async () => {
    const { receiver, seen } = recordingReceiver();
    const app = new H3()
      .use(async (event) => {
        await readBody(event).catch(() => undefined);
      })
      .post("/webhooks", defineWebhookHandler(receiver));
    const response = await post(await listen(app), deliveryBody());
    expect([response.status, response.json.error?.code]).toEqual([500, "body_already_parsed"]);
    expect(response.json.error?.message).toMatch(/readBody\(\)/);
    expect(seen).toHaveLength(0);
  });

  it("rejects a tampered body", async () => {
    const { receiver, seen } = recordingReceiver();
    const url = await listen(new H3().post("/webhooks", defineWebhookHandler(receiver)));
    const response = await post(url, deliveryBody("evt_sent"), deliveryBody("evt_signed"));
    expect([response.status, response.json.error?.code]).toEqual([400, "signature_mismatch"]);
    expect(seen).toHaveLength(0);
  });
});
