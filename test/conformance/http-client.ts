import { request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sendPartialOverSocket } from "./partial-body";
import { type RunningApp, WEBHOOK_PATH, type WireRequest, type WireResponse } from "./target";

/** Sends a request to a server on loopback with node:http, so every header and byte goes out as given. */
export function sendOverHttp(baseUrl: string, path: string, wire: WireRequest): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    const headers = wire.body ? { "content-length": String(wire.body.byteLength), ...wire.headers } : wire.headers;
    const req = request(new URL(wire.path ?? path, baseUrl), { method: wire.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
        }
        resolve({ status: res.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks).toString("utf8") });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(wire.body);
  });
}

/** Converts a Web Response (route handlers called in-process) to the wire shape. */
export async function fromResponse(response: Response): Promise<WireResponse> {
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: await response.text(),
  };
}

/** Starts `server` on a free loopback port: a running app whose requests go to WEBHOOK_PATH there. */
export function listenOnLoopback(server: Server): Promise<RunningApp> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({
        url: baseUrl,
        send: (request) => sendOverHttp(baseUrl, WEBHOOK_PATH, request),
        sendPartial: (wire, bytes, ending) => sendPartialOverSocket(baseUrl, WEBHOOK_PATH, wire, bytes, ending),
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
