import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET } from "../conformance/deliveries";
import { sendOverHttp } from "../conformance/http-client";
import { buildAndStart, buildAndStartOnNode24, type RunningApp24 } from "../support/node24-app";
import {
  bomMultibyteDelivery,
  nonUtf8Delivery,
  sendGetTo,
  sendTamperedTo,
  sendTwiceTo,
  sendUnsignedTo,
} from "./checks";

// The recipes of packages/fetch/README.md for frameworks that build an app: each fixture app is built once with the
// framework's own CLI and its built server started. SvelteKit 3, Astro 7 and React Router 8 run on Node 24 (they need
// Node 22.17+, 22.12+ and 22.22+); React Router 7 on the Node running the tests (20, the repository's minimum).
/** The path of a package's command, resolved from the app as its own CLI would be. */
function bin(appDir: string, pkg: string, command: string): string {
  const manifest = createRequire(`${appDir}/package.json`).resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: Record<string, string> };
  return join(dirname(manifest), bin[command] as string);
}

const RECIPES = fileURLToPath(new URL(".", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));

// react-router-serve prints "[react-router-serve] http://localhost:<port> (<url>)".
const reactRouterReady = (output: string, url: string) => output.includes(`(${url})`);

const APPS = [
  {
    recipe: "SvelteKit: src/routes/webhooks/+server.ts, adapter-node",
    appDir: join(RECIPES, "sveltekit-app"),
    build: (appDir: string) => [bin(appDir, "vite", "vite"), "build"],
    start: () => ["build/index.js"],
  },
  {
    recipe: "Astro: src/pages/webhooks.ts with prerender = false, @astrojs/node",
    appDir: join(RECIPES, "astro-app"),
    build: (appDir: string) => [bin(appDir, "astro", "astro"), "build"],
    start: () => ["dist/server/entry.mjs"],
  },
  {
    recipe: "React Router 8: resource route action and loader, react-router-serve",
    appDir: join(RECIPES, "react-router-app"),
    build: (appDir: string) => [bin(appDir, "@react-router/dev", "react-router"), "build"],
    start: (appDir: string) => [bin(appDir, "@react-router/serve", "react-router-serve"), "build/server/index.js"],
    ready: reactRouterReady,
  },
  {
    // fixtures/react-router7, a workspace of its own (two majors cannot share one install): its routes.ts declares
    // the React Router 8 app's route file, so both majors build the same source.
    recipe: `React Router 7 on Node ${process.versions.node}: the same resource route, react-router-serve`,
    appDir: join(FIXTURES, "react-router7"),
    node: process.execPath,
    build: (appDir: string) => [bin(appDir, "@react-router/dev", "react-router"), "build"],
    start: (appDir: string) => [bin(appDir, "@react-router/serve", "react-router-serve"), "build/server/index.js"],
    ready: reactRouterReady,
  },
];

describe.each(APPS)("$recipe", ({ appDir, node, build, start, ready }) => {
  let app: RunningApp24;
  beforeAll(async () => {
    const options = {
      build: build(appDir),
      start: start(appDir),
      env: { WEBHOOK_SECRET: SECRET },
      ...(ready && { ready }),
    };
    app = await (node ? buildAndStart(appDir, node, options) : buildAndStartOnNode24(appDir, options));
  }, 300_000);
  afterAll(() => app?.close());

  it("verifies a delivery over its exact bytes, invalid UTF-8 included, and runs the handler", async () => {
    const messageId = `msg_${basename(appDir)}`;
    const response = await sendOverHttp(app.url, "/webhooks", nonUtf8Delivery(messageId));
    expect([response.status, response.body], app.output()).toEqual([200, '{"received":true}']);
    await app.printed(`delivered ${messageId}`);
  });

  it("verifies a body that opens with a BOM and holds multibyte characters, and runs the handler", async () => {
    const messageId = `msg_bom_${basename(appDir)}`;
    const response = await sendOverHttp(app.url, "/webhooks", bomMultibyteDelivery(messageId));
    expect([response.status, response.body], app.output()).toEqual([200, '{"received":true}']);
    await app.printed(`delivered ${messageId}`);
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
