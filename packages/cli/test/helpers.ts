import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable, Writable } from "node:stream";
import { createReceiver, type MessageEvents } from "@tidings/core";
import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";
import type { Io } from "../src/io";
import { run } from "../src/program";

export const SECRET = "whsec_cli_test";

export interface ReceivedEvent {
  id: string;
  type: keyof MessageEvents;
  data: { id: string; status: string; channel: string; [field: string]: unknown };
  [field: string]: unknown;
}

export interface TestReceiver {
  url: string;
  /** Events the real Receiver verified and handed to its handlers, in arrival order. */
  events: ReceivedEvent[];
  /** Every request that reached the server, answered by the Receiver or not. */
  requests: number;
  close(): Promise<void>;
}

/**
 * A real receiver: node:http + core's Receiver (verify, dedup, dispatch). `intercept` may answer a request
 * itself (return true) before the Receiver sees it, e.g. to fail the first attempt.
 */
export async function startReceiver(
  options: {
    secret?: string;
    intercept?: (request: IncomingMessage, response: ServerResponse, n: number) => boolean;
  } = {},
): Promise<TestReceiver> {
  const events: ReceivedEvent[] = [];
  const receiver = createReceiver({ secret: options.secret ?? SECRET, logger: { error: () => {} } }).onAny((event) => {
    events.push(event as unknown as ReceivedEvent);
  });
  const state = { requests: 0 };
  const server = createServer((request, response) => {
    state.requests++;
    if (options.intercept?.(request, response, state.requests)) return;
    handleNodeRequest(receiver, request, { consumedFix: "n/a" }).then((result) => writeNodeResponse(response, result));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    events,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

class Capture extends Writable {
  text = "";
  constructor(readonly isTTY = false) {
    super();
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the commander program in-process with captured output. */
export async function runCli(
  argv: readonly string[],
  options: { stdin?: Iterable<Uint8Array | string>; stderrIsTTY?: boolean } = {},
): Promise<CliRun> {
  const stdout = new Capture();
  const stderr = new Capture(options.stderrIsTTY);
  const io: Io = { stdin: Readable.from(options.stdin ?? []), stdout, stderr };
  const code = await run(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}
