// Cloudflare Worker entry, bundled by esbuild (format esm) and run in workerd by Miniflare with no
// compatibility flags: no nodejs_compat, so no process, no node:crypto, no node:zlib.
import { createApp } from "./app";

const app = createApp({ name: "workerd", version: "see runner" });

export default {
  fetch(request: Request): Promise<Response> {
    return app(request);
  },
};
