// Deno entry: Deno.serve on 127.0.0.1, port 0; prints {"port": n} once listening.
import { createApp } from "./app";

declare const Deno: {
  version: { deno: string };
  serve(
    options: { hostname: string; port: number; onListen: (address: { port: number }) => void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(JSON.stringify({ port })) },
  createApp({ name: "deno", version: Deno.version.deno, coreModule: import.meta.resolve("@tidings/core") }),
);
