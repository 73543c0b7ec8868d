import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET } from "../conformance/deliveries";
import { sendOverHttp } from "../conformance/http-client";
import { buildAndStartOnNode24, type RunningApp24 } from "../support/node24-app";
import {
  bomMultibyteDelivery,
  nonUtf8Delivery,
  sendGetTo,
  sendTamperedTo,
  sendTwiceTo,
  sendUnsignedTo,
} from "./checks";

// The recipes of packages/fetch/README.md for frameworks that build an app: each fixture app is built with the
// framework's own CLI and its built server started, on Node 24 (SvelteKit 3 needs Node 22.17+, Astro 7 22.12+,
// React Router 8 22.22+).
/** The path of a package's executable, resolved from the fixture app as its own CLI would be. */
function bin(appDir: string, pkg: string, path: string): string {
  return join(dirname(createRequire(`${appDir}/package.json`).resolve(`${pkg}/package.json`)), path);
}

const APPS = [
  {
    recipe: "SvelteKit: src/routes/webhooks/+server.ts, adapter-node",
    dir: "sveltekit-app",
    build: (appDir: string) => [bin(appDir, "vite", "bin/vite.js"), "build"],
    start: () => ["build/index.js"],
  },
  {
    recipe: "Astro: src/pages/webhooks.ts with prerender = false, @astrojs/node",
    dir: "astro-app",
    build: (appDir: string) => [bin(appDir, "astro", "bin/astro.mjs"), "build"],
    start: () => ["dist/server/entry.mjs"],
  },
  {
    recipe: "React Router 8: resource route action and loader, react-router-serve",
    dir: "react-router-app",
    build: (appDir: string) => [bin(appDir, "@react-router/dev", "bin.cjs"), "build"],
    start: (appDir: string) => [bin(appDir, "@react-router/serve", "bin.cjs"), "build/server/index.js"],
    // react-router-serve prints "[react-router-serve] http://localhost:<port> (<url>)".
    ready: (output: string, url: string) => output.includes(`(${url})`),
  },
];

describe.each(APPS)("$recipe", ({ dir, build, start, ready }) => {
  const appDir = fileURLToPath(new URL(`./${dir}`, import.meta.url));
  let app: RunningApp24;
  beforeAll(async () => {
    app = await buildAndStartOnNode24(appDir, {
      build: build(appDir),
      start: start(appDir),
      env: { WEBHOOK_SECRET: SECRET },
      ...(ready && { ready }),
    });
  }, 300_000);
  afterAll(() => app?.close());

  it("verifies a delivery over its exact bytes, invalid UTF-8 included, and runs the handler", async () => {
    const messageId = `msg_${dir}`;
    const response = await sendOverHttp(app.url, "/webhooks", nonUtf8Delivery(messageId));
    expect([response.status, response.body], app.output()).toEqual([200, '{"received":true}']);
    await expect.poll(() => app.output()).toContain(`delivered ${messageId}`);
  });

  it("verifies a body that opens with a BOM and holds multibyte characters, and runs the handler", async () => {
    const messageId = `msg_bom_${dir}`;
    const response = await sendOverHttp(app.url, "/webhooks", bomMultibyteDelivery(messageId));
    expect([response.status, response.body], app.output()).toEqual([200, '{"received":true}']);
    await expect.poll(() => app.output()).toContain(`delivered ${messageId}`);
  });

  it("answers a repeated delivery 200 with duplicate: true", async () => {
    expect(await sendTwiceTo(app.url, "/webhooks")).toEqual([
      [200, '{"received":true}'],
      [200, '{"received":true,"duplicate":true}'],
    ]);
  });

  it("rejects a tampered body", async () => {
    expect(await sendTamperedTo(app.url, "/webhooks")).toEqual([400, "signature_mismatch"]);
  });

  it("rejects a delivery without its signature header", async () => {
    expect(await sendUnsignedTo(app.url, "/webhooks")).toEqual([400, "missing_header"]);
  });

  it("answers a GET with 405", async () => {
    expect(await sendGetTo(app.url, "/webhooks")).toEqual([405, "POST"]);
  });
});
