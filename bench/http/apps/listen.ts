import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningApp } from "../routes";

/** Serves on 127.0.0.1 only, on a free port. */
export function listenServer(server: Server): Promise<RunningApp> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

export function listen(listener: RequestListener): Promise<RunningApp> {
  return listenServer(createServer(listener));
}
