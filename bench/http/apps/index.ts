import type { StartApp } from "../routes";

export interface Framework {
  id: string;
  label: string;
  adapter: string;
  load(): Promise<StartApp>;
}

/** Every adapter benchmarked, each against hand-written routes in the same framework. */
export const FRAMEWORKS: readonly Framework[] = [
  {
    id: "express",
    label: "Express 5",
    adapter: "@tidings/express",
    load: async () => (await import("./express")).start,
  },
  {
    id: "fastify",
    label: "Fastify 5",
    adapter: "@tidings/fastify",
    load: async () => (await import("./fastify")).start,
  },
  { id: "koa", label: "Koa 3", adapter: "@tidings/koa", load: async () => (await import("./koa")).start },
  {
    id: "hono",
    label: "Hono 4 on @hono/node-server",
    adapter: "@tidings/fetch",
    load: async () => (await import("./hono")).start,
  },
  {
    id: "next-app",
    label: "Next.js App Router handler (Web Request via @hono/node-server)",
    adapter: "@tidings/next createRouteHandler",
    load: async () => (await import("./next-app")).start,
  },
  {
    id: "next-pages",
    label: "Next.js Pages API handler (node:http)",
    adapter: "@tidings/next createPagesHandler",
    load: async () => (await import("./next-pages")).start,
  },
];

export function framework(id: string): Framework {
  const found = FRAMEWORKS.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`unknown framework ${id}`);
  return found;
}
