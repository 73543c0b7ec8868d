// The Elysia recipe of packages/fetch/README.md ("Recipes"), run by Bun in elysia-bun.test.ts.
import { createReceiver } from "@tidings/core";
import { createFetchHandler } from "@tidings/fetch";
import { Elysia, t } from "elysia";

const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET as string });
receiver.on("message.delivered", (event) => console.log(`delivered ${event.data.id}`));
const handle = createFetchHandler(receiver);

const app = new Elysia()
  // `parse: "none"`: Elysia leaves this route's body unread, so the handler gets the exact bytes.
  .post("/webhooks", ({ request }) => handle(request), { parse: "none" })
  // Every other route keeps Elysia's JSON parsing.
  .post("/echo", ({ body }) => body)
  // The mistake: a body schema (or a handler that reads `body`) makes Elysia parse the body first.
  .post("/parsed-first", ({ request }) => handle(request), { body: t.Object({ type: t.String() }) })
  .listen({ port: 0, hostname: "127.0.0.1" });

console.log(`listening on ${app.server?.url}`);
