import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the proxy passes it on: the path and query, the rewritten headers, the body's bytes. */
export interface ForwardedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface ForwardingProxyOptions {
  /**
   * The `Host` the app is reached at (`127.0.0.1:<port>`): what the proxy writes in place of the client's. A function
   * is asked per request, for an app started after its proxy.
   */
  upstreamHost: string | (() => string);
  /** Sends the rewritten request to the app: over HTTP to its port, or into an app that runs in process. */
  forward(request: ForwardedRequest): Promise<UpstreamAnswer>;
  /** A path prefix the proxy routes on and strips (`/api`), as a proxy in front of several apps does. */
  stripPrefix?: string;
}

export interface ForwardingProxy {
  /** The URL clients call, the `Host` they send: `http://localhost:<port>`, another host and port than the app's. */
  url: string;
  /** Where to connect to reach it: `http://127.0.0.1:<port>` (whatever `localhost` resolves to first). */
  address: string;
  close(): Promise<void>;
}

// Hop-by-hop headers are the proxy's own; what a client says of forwarding is dropped, never passed on.
const DROPPED = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
]);

async function bodyOf(req: IncomingMessage): Promise<Uint8Array | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? new Uint8Array(Buffer.concat(chunks)) : undefined;
}

function forwardedHeaders(req: IncomingMessage, upstreamHost: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || DROPPED.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  headers["x-forwarded-host"] = req.headers.host ?? "";
  headers["x-forwarded-proto"] = "http";
  headers["x-forwarded-for"] = req.socket.remoteAddress ?? "";
  headers.host = upstreamHost;
  return headers;
}

/**
 * A reverse proxy on loopback, in front of an app: clients call it at `localhost` on a port of its own; it passes each
 * request on with the app's `Host`, sets `X-Forwarded-Host`, `X-Forwarded-Proto` and `X-Forwarded-For` (overwriting
 * any a client sent), and strips `stripPrefix` from the path. So the app sees another URL than the one called.
 */
export async function startForwardingProxy(options: ForwardingProxyOptions): Promise<ForwardingProxy> {
  const { stripPrefix = "", upstreamHost } = options;
  const server = createServer(async (req, res) => {
    try {
      const url = req.url ?? "/";
      if (!url.startsWith(stripPrefix)) return void res.writeHead(404).end();
      const body = await bodyOf(req);
      const answer = await options.forward({
        method: req.method ?? "GET",
        path: url.slice(stripPrefix.length) || "/",
        headers: forwardedHeaders(req, typeof upstreamHost === "string" ? upstreamHost : upstreamHost()),
        ...(body ? { body } : {}),
      });
      const headers = { ...answer.headers };
      for (const name of DROPPED) delete headers[name];
      delete headers["content-length"];
      res.writeHead(answer.status, headers).end(answer.body);
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    address: `http://127.0.0.1:${port}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
