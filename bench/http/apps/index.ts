import type { StartApp } from "../routes";

export interface Framework {
  id: string;
  label: string;
  adapter: string;
  load(): Promise<StartApp>;
}

const LISTED = [
  { id: "express", label: "Express 5", adapter: "@tidings/express" },
  { id: "fastify", label: "Fastify 5", adapter: "@tidings/fastify" },
  { id: "koa", label: "Koa 3", adapter: "@tidings/koa" },
  { id: "hono", label: "Hono 4 on @hono/node-server", adapter: "@tidings/fetch" },
  {
    id: "next-app",
    label: "Next.js App Router handler (Web Request via @hono/node-server)",
    adapter: "@tidings/next createRouteHandler",
  },
  { id: "next-pages", label: "Next.js Pages API handler (node:http)", adapter: "@tidings/next createPagesHandler" },
];

/** Every adapter benchmarked, each against hand-written routes in the same framework; its app is `./<id>.ts`. */
export const FRAMEWORKS: readonly Framework[] = LISTED.map((listed) => ({
  ...listed,
  load: async () => ((await import(`./${listed.id}`)) as { start: StartApp }).start,
}));

export function framework(id: string): Framework {
  const found = FRAMEWORKS.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`unknown framework ${id}`);
  return found;
}
