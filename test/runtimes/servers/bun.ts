// Bun entry: Bun.serve on 127.0.0.1, port 0; prints {"port": n} once listening.
import { createApp } from "./app";

declare const Bun: {
  version: string;
  serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): {
    port: number;
  };
};

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: createApp({ name: "bun", version: Bun.version, coreModule: import.meta.resolve("@tidings/core") }),
});
console.log(JSON.stringify({ port: server.port }));
