import { createServer, type IncomingMessage, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A real HTTP server on loopback whose handler gets each request; answers with the handler's outcome. */
export async function withServer(
  onRequest: (req: IncomingMessage) => Promise<unknown>,
  run: (port: number) => Promise<void>,
): Promise<void> {
  const server: Server = createServer((req, res) => {
    onRequest(req).then(
      (value) => res.writeHead(200).end(JSON.stringify({ value })),
      (error: { code?: string; status?: number }) =>
        res.writeHead(error.status ?? 599).end(JSON.stringify({ code: error.code })),
    );
  });
  await whileListening(server, run);
}

/** Listens on a loopback port the OS picks, runs `run` with it, then closes every connection and the server. */
export async function whileListening(server: Server, run: (port: number) => Promise<void>): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await run((server.address() as AddressInfo).port);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

export function post(
  port: number,
  headers: Record<string, string>,
  chunks: readonly Uint8Array[],
  options: { abortWhen?: Promise<unknown> } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method: "POST", headers }, (res) => {
      let body = "";
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    for (const chunk of chunks) req.write(chunk);
    if (options.abortWhen) {
      // Vanish mid-request once the server has the request (a fixed delay lost the race on a loaded machine).
      void options.abortWhen.then(() => req.destroy());
      resolve({ status: 0, body: "" });
    } else req.end();
  });
}
