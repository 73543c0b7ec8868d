import { appendFileSync, existsSync, watch } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname } from "node:path";
import { createReceiver, type DeliveryContext } from "@tidings/core";
import type { WorkerContext } from "@tidings/core/dispatch";
import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";

// The halves of the fixture processes that do not depend on the engine: a receiver whose one handler enqueues,
// its own MemoryStore per process, and a worker handler that logs each handled event to a shared file.

export const QUEUE_SECRET = "whsec_queue";

/** A node:http receiver on a free loopback port; prints `{"port": n}` once listening. */
export function serveReceiver(enqueue: (event: object, context: DeliveryContext) => Promise<void>): void {
  const receiver = createReceiver({ secret: QUEUE_SECRET, logger: { error() {} } }).onAny(enqueue);
  const server = createServer((request, response) => {
    handleNodeRequest(receiver, request, { consumedFix: "n/a" }).then((result) => writeNodeResponse(response, result));
  });
  server.listen(0, "127.0.0.1", () => {
    console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
  });
}

/** Resolves once `file` is gone, asked again whenever something in its folder changes. */
function whileExists(file: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dirname(file), () => {
      if (existsSync(file)) return;
      watcher.close();
      resolve();
    });
    if (existsSync(file)) return;
    watcher.close();
    resolve();
  });
}

/**
 * The fixture workers' handler. HANDLED_LOG: file that gets one JSON line per handled event; HOLD_WHILE_EXISTS: a file
 * whose presence holds every run (the job stays the worker's until the file is removed or the worker killed);
 * FAIL_WHILE_EXISTS: a file whose presence makes every run fail.
 */
export function recordingHandler(env: NodeJS.ProcessEnv = process.env) {
  const log = env.HANDLED_LOG as string;
  const holdFlag = env.HOLD_WHILE_EXISTS;
  const failFlag = env.FAIL_WHILE_EXISTS;
  return async (event: { id?: unknown }, context: WorkerContext): Promise<void> => {
    if (holdFlag) await whileExists(holdFlag);
    if (failFlag && existsSync(failFlag)) throw new Error(`failing while ${failFlag} exists`);
    const record = {
      id: event.id,
      attempt: context.attempt,
      pid: process.pid,
      deliveryKey: context.deliveryKey,
      type: context.type,
      event,
    };
    appendFileSync(log, `${JSON.stringify(record)}\n`);
  };
}

/** Graceful stop on SIGTERM, so a test can tell a clean stop from a SIGKILL. */
export function closeOnSigterm(close: () => Promise<void>): void {
  process.once("SIGTERM", () => {
    close().then(() => process.exit(0));
  });
}
