import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delivery, eventBody, SECRET } from "../conformance/deliveries";
import { sendOverHttp } from "../conformance/http-client";
import { type ChildServer, startServer } from "../support/child-process";
import { errorCode, nonUtf8Delivery, sendTamperedTo } from "./checks";

const BUN = fileURLToPath(new URL("../../node_modules/.bin/bun", import.meta.url));
const SERVER = fileURLToPath(new URL("./elysia-server.ts", import.meta.url));
let server: ChildServer;
let url: string;

beforeAll(async () => {
  server = await startServer(BUN, [SERVER], {
    cwd: fileURLToPath(new URL(".", import.meta.url)),
    env: { WEBHOOK_SECRET: SECRET },
    ready: (output) => /listening on http:\/\/\S+\//.test(output),
  });
  url = (/listening on (http:\/\/\S+)\//.exec(server.output()) as RegExpExecArray)[1] as string;
});
afterAll(() => server?.close());

describe("Elysia on Bun recipe (parse: 'none' on the webhook route)", () => {
  it("verifies a delivery over its exact bytes, invalid UTF-8 included, and runs the handler", async () => {
    const response = await sendOverHttp(url, "/webhooks", nonUtf8Delivery("msg_elysia"));
    expect([response.status, response.body]).toEqual([200, '{"received":true}']);
    await server.printed("delivered msg_elysia");
  });

  it("rejects a tampered body", async () => {
    expect(await sendTamperedTo(url, "/webhooks")).toEqual([400, "signature_mismatch"]);
  });

  it("keeps Elysia's JSON parsing on the other routes", async () => {
    const response = await sendOverHttp(url, "/echo", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new TextEncoder().encode('{"parsed":true}'),
    });
    expect(JSON.parse(response.body)).toEqual({ parsed: true });
  });

  it("answers 500 body_already_parsed on a route where Elysia parsed the body first", async () => {
    const response = await sendOverHttp(url, "/parsed-first", delivery(eventBody()));
    expect([response.status, errorCode(response.body)]).toEqual([500, "body_already_parsed"]);
  });
});
