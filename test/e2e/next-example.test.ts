import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAndStartNextApp, type RunningNextApp } from "../support/next-app";
import { tidings } from "./cli";
import { messageRecord, sendTampered } from "./example-servers";

// examples/next built and started as a user would (next build + next start, the built @tidings packages).
const APP_DIR = fileURLToPath(new URL("../../examples/next", import.meta.url));
const SECRET = "whsec_next_example";
let app: RunningNextApp;

beforeAll(async () => {
  app = await buildAndStartNextApp(APP_DIR, { WEBHOOK_SECRET: SECRET });
});
afterAll(() => app?.close());

/** `tidings send` of one event to a route of the app; `messageId` sets the event's data.id. */
function send(route: string, type: string, messageId?: string) {
  const data = messageId ? ["--data", JSON.stringify({ id: messageId })] : [];
  return tidings(["send", "--url", new URL(route, app.url).href, "--secret", SECRET, "--type", type, ...data]);
}

const ROUTES = [
  { route: "/webhooks", runtime: "App Router, Node runtime", stores: true },
  { route: "/edge-webhooks", runtime: "App Router, Edge runtime", stores: false },
  { route: "/api/webhooks", runtime: "Pages Router", stores: true },
] as const;

describe.each(ROUTES)("examples/next $route ($runtime)", ({ route, stores }) => {
  it("verifies a delivery sent by `tidings send`", async () => {
    const messageId = `msg_next${route.replaceAll("/", "_")}`;
    const sent = await send(route, "message.sent", messageId);
    expect(sent.code, `${sent.stdout}${sent.stderr}\n${app.output()}`).toBe(0);
    const record = await messageRecord(app.url, messageId);
    if (stores) expect(record).toMatchObject({ status: "sent", events: ["message.sent"] });
    else expect(record).toBeUndefined();
  });

  it("refuses a tampered body and a GET", async () => {
    expect(await sendTampered(new URL(route, app.url), SECRET)).toEqual([400, "signature_mismatch"]);
    expect((await fetch(new URL(route, app.url))).status).toBe(405);
  });

  it("passes every probe of `tidings check`", async () => {
    const checked = await tidings(["check", "--url", new URL(route, app.url).href, "--secret", SECRET, "--json"]);
    const report = JSON.parse(checked.stdout) as { results: { pass: boolean }[] };
    expect(report.results.filter((result) => !result.pass)).toEqual([]);
    expect(checked.code).toBe(0);
  });
});

describe("examples/next message lookups", () => {
  it("serves the same record at /messages/:id (rewrite) and /api/messages/:id, whichever Node route received it", async () => {
    const messageId = "msg_next_both_routes";
    for (const [route, type] of [
      ["/webhooks", "message.sent"],
      ["/api/webhooks", "message.delivered"],
    ] as const) {
      expect((await send(route, type, messageId)).code).toBe(0);
    }
    const viaRewrite = await messageRecord(app.url, messageId);
    expect(viaRewrite).toMatchObject({ status: "delivered", events: ["message.sent", "message.delivered"] });
    const viaApi = await fetch(new URL(`/api/messages/${messageId}`, app.url));
    expect(await viaApi.json()).toEqual(viaRewrite);
  });
});
