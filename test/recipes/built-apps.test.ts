import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET } from "../conformance/deliveries";
import { sendOverHttp } from "../conformance/http-client";
import { buildAndStartOnNode24, type RunningApp24 } from "../support/node24-app";
import { nonUtf8Delivery, sendTamperedTo } from "./checks";

// The recipes of packages/fetch/README.md for frameworks that build an app: each fixture app is built with the
// framework's own CLI and its built server started, on Node 24 (SvelteKit 3 needs Node 22.17+, Astro 7 22.12+).
const APPS = [
  {
    recipe: "SvelteKit: src/routes/webhooks/+server.ts, adapter-node",
    dir: "sveltekit-app",
    cli: { pkg: "vite", bin: "bin/vite.js" },
    server: "build/index.js",
  },
  {
    recipe: "Astro: src/pages/webhooks.ts with prerender = false, @astrojs/node",
    dir: "astro-app",
    cli: { pkg: "astro", bin: "bin/astro.mjs" },
    server: "dist/server/entry.mjs",
  },
];

describe.each(APPS)("$recipe", ({ dir, cli, server }) => {
  const appDir = fileURLToPath(new URL(`./${dir}`, import.meta.url));
  let app: RunningApp24;
  beforeAll(async () => {
    const pkg = createRequire(`${appDir}/package.json`).resolve(`${cli.pkg}/package.json`);
    app = await buildAndStartOnNode24(appDir, {
      build: [join(dirname(pkg), cli.bin), "build"],
      start: [server],
      env: { WEBHOOK_SECRET: SECRET },
    });
  }, 300_000);
  afterAll(() => app?.close());

  it("verifies a delivery over its exact bytes, invalid UTF-8 included, and runs the handler", async () => {
    const response = await sendOverHttp(app.url, "/webhooks", nonUtf8Delivery(`msg_${dir}`));
    expect([response.status, response.body], app.output()).toEqual([200, '{"received":true}']);
    await expect.poll(() => app.output()).toContain(`delivered msg_${dir}`);
  });

  it("rejects a tampered body", async () => {
    expect(await sendTamperedTo(app.url, "/webhooks")).toEqual([400, "signature_mismatch"]);
  });
});
