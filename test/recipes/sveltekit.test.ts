import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delivery, eventBody, SECRET } from "../conformance/deliveries";
import { sendOverHttp } from "../conformance/http-client";
import { buildAndStartOnNode24, type RunningApp24 } from "../support/node24-app";

// The SvelteKit recipe (packages/fetch/README.md) as a real app: `vite build` with adapter-node, then the built
// server, on Node 24 (SvelteKit 3 needs Node 22.17+).
const APP_DIR = fileURLToPath(new URL("./sveltekit-app", import.meta.url));
let app: RunningApp24;

beforeAll(async () => {
  const vite = join(dirname(createRequire(`${APP_DIR}/package.json`).resolve("vite/package.json")), "bin", "vite.js");
  app = await buildAndStartOnNode24(APP_DIR, {
    build: [vite, "build"],
    start: ["build/index.js"],
    env: { WEBHOOK_SECRET: SECRET },
  });
}, 300_000);
afterAll(() => app?.close());

function code(body: string): string | undefined {
  return (JSON.parse(body) as { error?: { code: string } }).error?.code;
}

describe("SvelteKit recipe (src/routes/webhooks/+server.ts, adapter-node)", () => {
  it("verifies a delivery over its exact bytes, invalid UTF-8 included, and runs the handler", async () => {
    const body = Uint8Array.from(
      Buffer.concat([
        Buffer.from('{"id":"evt_kit","type":"message.delivered","data":{"id":"msg_kit","note":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}}'),
      ]),
    );
    const response = await sendOverHttp(app.url, "/webhooks", delivery(body));
    expect([response.status, response.body], app.output()).toEqual([200, '{"received":true}']);
    await expect.poll(() => app.output()).toContain("delivered msg_kit");
  });

  it("rejects a tampered body", async () => {
    const response = await sendOverHttp(app.url, "/webhooks", delivery(eventBody(), { sendBody: eventBody() }));
    expect([response.status, code(response.body)]).toEqual([400, "signature_mismatch"]);
  });
});
