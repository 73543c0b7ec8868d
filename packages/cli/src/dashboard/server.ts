import { type Context, Hono } from "hono";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";
import { chaosSettings } from "../emulator/chaos";
import type { Deliverer } from "../emulator/deliverer";
import { type Listening, serveFetch } from "../emulator/http";
import type { Journal } from "../emulator/journal";
import { MESSAGE_EVENT_TYPES, type MessageEventType } from "../events";
import { FIXTURES } from "../fixtures";
import { allowedHosts, hostGuard } from "./host-guard";
import { renderPage } from "./page";

export interface DashboardSources {
  journal: Journal;
  deliverer: Deliverer;
  apiUrl: string;
  webhookUrl: string;
}

export interface DashboardAccess {
  /** The `host:port` values `Host` (and `Origin`) may name: see `allowedHosts`. */
  hosts: () => ReadonlySet<string>;
}

const problem = (c: Context, status: 400 | 404 | 415, message: string) => c.json({ error: { message } }, status);

/** The dashboard's JSON API, its event stream and its page. Writes need a JSON body, which a cross-site form cannot send. */
export function createDashboardApp(
  { journal, deliverer, apiUrl, webhookUrl }: DashboardSources,
  access: DashboardAccess,
): Hono {
  const app = new Hono();
  app.use(hostGuard(access.hosts));
  const streams = new Set<SSEStreamingApi>();
  const broadcast = (event: string, data: unknown) => {
    for (const stream of streams) void stream.writeSSE({ event, data: JSON.stringify(data) });
  };
  const controls = () => ({ paused: deliverer.paused, chaos: deliverer.chaos });
  const state = () => ({
    apiUrl,
    webhookUrl,
    types: MESSAGE_EVENT_TYPES,
    fixtures: FIXTURES,
    ...controls(),
    messages: journal.messages(),
  });
  journal.onChange((message) => broadcast("message", message));

  app.get("/", (c) => c.html(renderPage()));
  app.get("/api/state", (c) => c.json(state()));
  app.get("/api/stream", (c) =>
    streamSSE(c, async (stream) => {
      streams.add(stream);
      await stream.writeSSE({ event: "snapshot", data: JSON.stringify(state()) });
      await new Promise<void>((resolve) => stream.onAbort(resolve));
      streams.delete(stream);
    }),
  );

  app.use("/api/*", async (c, next) => {
    if (c.req.method === "GET") return next();
    if (!c.req.header("content-type")?.startsWith("application/json")) {
      return problem(c, 415, "Send a JSON body (content-type: application/json).");
    }
    return next();
  });
  const body = async (c: Context) => ((await c.req.json().catch(() => undefined)) ?? {}) as Record<string, unknown>;

  app.post("/api/pause", (c) => {
    deliverer.paused = true;
    broadcast("controls", controls());
    return c.json(controls());
  });
  app.post("/api/resume", (c) => {
    deliverer.paused = false;
    broadcast("controls", controls());
    return c.json(controls());
  });
  app.put("/api/chaos", async (c) => {
    try {
      deliverer.chaos = chaosSettings({ ...deliverer.chaos, ...(await body(c)) });
    } catch (error) {
      return problem(c, 400, (error as Error).message);
    }
    broadcast("controls", controls());
    return c.json(controls());
  });
  app.post("/api/test-events", async (c) => {
    const { type } = await body(c);
    if (!(MESSAGE_EVENT_TYPES as readonly unknown[]).includes(type)) {
      return problem(c, 400, `type must be one of ${MESSAGE_EVENT_TYPES.join(", ")}.`);
    }
    return c.json({ messageId: deliverer.sendTestEvent(type as MessageEventType) }, 202);
  });
  app.post("/api/messages/:messageId/events/:eventId/resend", (c) => {
    const { messageId, eventId } = c.req.param();
    return deliverer.resend(messageId, eventId)
      ? c.json({ resent: true }, 202)
      : problem(c, 404, `No event ${eventId} of message ${messageId}.`);
  });
  return app;
}

export async function startDashboard(sources: DashboardSources, port: number, host: string): Promise<Listening> {
  // The port is known once listening (port 0 picks one); no request is answered before.
  let hosts: ReadonlySet<string> = new Set();
  const listening = await serveFetch(createDashboardApp(sources, { hosts: () => hosts }).fetch, port, host);
  hosts = allowedHosts(host, Number(new URL(listening.url).port));
  return listening;
}
