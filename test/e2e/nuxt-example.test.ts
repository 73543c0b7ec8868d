import { fileURLToPath } from "node:url";
import type { CheckReport } from "@tidings/cli";
import { sign } from "@tidings/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApp24 } from "../support/node24-app";
import { buildAndStartNuxtApp } from "../support/nuxt-app";
import { tidings } from "./cli";
import { messageRecord } from "./example-servers";

// examples/nuxt built and started as a user would (nuxt build, node .output/server/index.mjs), on Node 24.
const APP_DIR = fileURLToPath(new URL("../../examples/nuxt", import.meta.url));
const SECRET = "whsec_nuxt_example";
let app: RunningApp24;

beforeAll(async () => {
  app = await buildAndStartNuxtApp(APP_DIR, { WEBHOOK_SECRET: SECRET });
}, 300_000);
afterAll(() => app?.close());

describe("examples/nuxt: server/api/webhooks.ts (Nuxt 4, Nitro 2, h3 v1)", () => {
  it("passes every probe of `tidings check`, other methods answered 405 by the route, not Nuxt's page renderer", async () => {
    const url = new URL("/api/webhooks", app.url).href;
    const checked = await tidings(["check", "--url", url, "--secret", SECRET, "--json"]);
    const report = JSON.parse(checked.stdout) as CheckReport;
    expect(report.results.filter((result) => !result.pass)).toEqual([]);
    expect(report.results).toHaveLength(12);
    expect(checked.code).toBe(0);
    for (const method of ["GET", "PUT", "DELETE"]) {
      const answer = await fetch(url, { method });
      expect([method, answer.status, answer.headers.get("allow")]).toEqual([method, 405, "POST"]);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");
    }
  });

  it("verifies deliveries sent by `tidings send` and serves the status at GET /messages/:id", async () => {
    for (const type of ["message.sent", "message.delivered"]) {
      const sent = await tidings([
        "send",
        "--url",
        new URL("/api/webhooks", app.url).href,
        "--secret",
        SECRET,
        "--type",
        type,
        "--data",
        JSON.stringify({ id: "msg_nuxt", channel: "email" }),
      ]);
      expect(sent.code, `${sent.stdout}${sent.stderr}\n${app.output()}`).toBe(0);
    }
    expect(await messageRecord(app.url, "msg_nuxt")).toMatchObject({
      status: "delivered",
      channel: "email",
      events: ["message.sent", "message.delivered"],
    });
    expect(await messageRecord(app.url, "msg_never_heard_of")).toBeUndefined();
  });

  it("verifies a body that is not valid UTF-8 over its exact bytes, and refuses it tampered", async () => {
    const body = Buffer.concat([
      Buffer.from(
        '{"id":"evt_bytes","type":"message.sent","data":{"id":"msg_nuxt_bytes","status":"sent","channel":"sms","note":"',
      ),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}}'),
    ]);
    const post = (sent: Buffer) =>
      fetch(new URL("/api/webhooks", app.url), {
        method: "POST",
        headers: { "content-type": "application/json", "service-signature": sign(body, SECRET) },
        body: Uint8Array.from(sent),
      });
    expect((await post(body)).status).toBe(200);
    const tampered = await post(Buffer.from(body.toString("utf8")));
    expect(tampered.status).toBe(400);
    expect(((await tampered.json()) as { error: { code: string } }).error.code).toBe("signature_mismatch");
  });
});
