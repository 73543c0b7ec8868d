import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { sign } from "@tidings/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAndStartNextApp, type RunningNextApp } from "../../../test/support/next-app";

// One `next build` + `next start` of test/fixture-app per run; every test talks to it over real HTTP.
const APP_DIR = fileURLToPath(new URL("./fixture-app", import.meta.url));
const SECRET = "whsec_next_fixture";

let app: RunningNextApp;
let baseUrl = "";
const output = () => app.output();

beforeAll(async () => {
  app = await buildAndStartNextApp(APP_DIR, { TIDINGS_FIXTURE_SECRET: SECRET });
  baseUrl = app.url;
});

afterAll(() => app?.close());

let eventCount = 0;
function eventBody(extra: Record<string, unknown> = {}): Uint8Array {
  const id = `evt_next_${++eventCount}`;
  const event = { id, type: "message.delivered", data: { id: "msg_1", status: "delivered", channel: "sms" }, ...extra };
  return new TextEncoder().encode(JSON.stringify(event));
}

function post(
  path: string,
  body: Uint8Array,
  options: { sendBody?: Uint8Array; headers?: Record<string, string> } = {},
) {
  return fetch(new URL(path, baseUrl), {
    method: "POST",
    headers: { "content-type": "application/json", "service-signature": sign(body, SECRET), ...options.headers },
    body: (options.sendBody ?? body) as Uint8Array<ArrayBuffer>,
  });
}

async function errorOf(response: Response): Promise<{ code?: string; message?: string }> {
  return ((await response.json()) as { error?: { code?: string; message?: string } }).error ?? {};
}

const ROUTES = [
  { name: "App Router, Node runtime", path: "/webhooks", edge: false },
  { name: "App Router, Edge runtime", path: "/edge-webhooks", edge: true },
  { name: "Pages Router", path: "/api/webhooks", edge: false },
  { name: "Pages Router, Edge runtime", path: "/api/edge-webhooks", edge: true },
] as const;

describe.each(ROUTES)("$name ($path) in a real next build + next start", ({ path, edge }) => {
  it("accepts a valid delivery", async () => {
    const response = await post(path, eventBody());
    expect(response.status, output()).toBe(200);
    expect(await response.json()).toEqual({ received: true });
  });

  it("rejects a tampered body as a signature mismatch", async () => {
    const response = await post(path, eventBody(), { sendBody: eventBody() });
    expect(response.status, output()).toBe(400);
    expect((await errorOf(response)).code).toBe("signature_mismatch");
  });

  it("answers a replay as a duplicate", async () => {
    const body = eventBody();
    expect((await post(path, body)).status, output()).toBe(200);
    const replay = await post(path, body);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, duplicate: true });
  });

  // Next's Edge sandbox stubs DecompressionStream (EDGE_UNSUPPORTED_NODE_APIS), so there core answers 415.
  it(`${edge ? "refuses" : "verifies"} a gzip-encoded body`, async () => {
    const body = eventBody();
    const response = await post(path, body, {
      sendBody: new Uint8Array(gzipSync(body)),
      headers: { "content-encoding": "gzip" },
    });
    expect(response.status, output()).toBe(edge ? 415 : 200);
    if (edge) expect((await errorOf(response)).message).toMatch(/^This runtime cannot decode Content-Encoding "gzip"/);
  });

  it("answers GET with 405", async () => {
    const response = await fetch(new URL(path, baseUrl));
    expect(response.status).toBe(405);
  });
});

describe("the URL a URL-signing scheme is given, in a real next build + next start", () => {
  const called = "?to=+15551234&note=caf%C3%A9&path=a%2Fb";

  it.each(["/url-echo", "/api/url-echo"])("is the URL %s was called at, query as sent, for a GET", async (path) => {
    const response = await fetch(new URL(path + called, baseUrl));
    expect([response.status, await response.text()], output()).toEqual([200, new URL(path, baseUrl).href + called]);
  });
});

describe("misconfigured routes in a real next build + next start", () => {
  it("explains, with the config to add, that the Pages Router's bodyParser consumed the body", async () => {
    const response = await post("/api/parsed-webhooks", eventBody());
    expect(response.status).toBe(500);
    const error = await errorOf(response);
    expect(error.code).toBe("body_already_parsed");
    expect(error.message).toContain("export const config = { api: { bodyParser: false } }");
  });

  it("catches the body proxy.ts cut at 10 MB as truncated, not as a bad signature", async () => {
    const body = eventBody({ pad: "x".repeat(11 * 1024 * 1024) });
    const response = await post("/proxied-webhooks", body);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe("body_truncated");
  });
});
