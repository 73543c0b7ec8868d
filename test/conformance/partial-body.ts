import { connect } from "node:net";
import { Readable } from "node:stream";
import type { PartialEnding, WireRequest, WireResponse } from "./target";

/** The answer read off a raw socket once complete (by Content-Length, or the last chunk), else undefined. */
function completeResponse(raw: string): WireResponse | undefined {
  const headEnd = raw.indexOf("\r\n\r\n");
  if (headEnd === -1) return undefined;
  const [statusLine = "", ...lines] = raw.slice(0, headEnd).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.slice(headEnd + 4);
  const length = headers["content-length"];
  let body: string;
  if (length !== undefined) {
    if (Buffer.byteLength(rest) < Number(length)) return undefined;
    body = rest;
  } else {
    if (!rest.endsWith("0\r\n\r\n")) return undefined;
    body = rest.replace(/(^|\r\n)[0-9a-f]+\r\n/gi, "").replace(/\r\n$/, "");
  }
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

/** Over a real socket: the head and part of the body, then a reset (abort) or silence until the server answers (stall). */
export function sendPartialOverSocket(
  baseUrl: string,
  path: string,
  wire: WireRequest,
  bytes: number,
  ending: PartialEnding,
): Promise<WireResponse | undefined> {
  const { hostname, port } = new URL(baseUrl);
  const body = Buffer.from(wire.body ?? new Uint8Array());
  const headers = { ...wire.headers, host: `${hostname}:${port}`, "content-length": String(body.byteLength) };
  const head = `${wire.method} ${path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")}\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(head);
      socket.write(body.subarray(0, bytes), () => {
        if (ending === "abort") socket.resetAndDestroy();
      });
    });
    const received: Buffer[] = [];
    let answer: WireResponse | undefined;
    socket.on("data", (chunk: Buffer) => {
      received.push(chunk);
      // The server may keep the socket open waiting for the rest of the body: stop once the answer is whole.
      answer = completeResponse(Buffer.concat(received).toString("utf8"));
      if (answer) socket.destroy();
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", (error) => (ending === "abort" ? undefined : reject(error)));
  });
}

/** In-process: a body stream that yields part of the body, then fails (abort) or never yields again (stall). */
export function partialBodyStream(wire: WireRequest, bytes: number, ending: PartialEnding): ReadableStream<Uint8Array> {
  const first = (wire.body ?? new Uint8Array()).slice(0, bytes);
  let pulls = 0;
  return new ReadableStream({
    pull(controller) {
      if (pulls++ === 0) return controller.enqueue(first);
      if (ending === "abort") return controller.error(new TypeError("terminated"));
      return new Promise(() => {});
    },
  });
}

/** The same as a Node stream, for in-process Node targets (Fastify's inject). */
export function partialBodyReadable(wire: WireRequest, bytes: number, ending: PartialEnding): Readable {
  return Readable.fromWeb(partialBodyStream(wire, bytes, ending) as import("node:stream/web").ReadableStream);
}

/** A request whose body a client sends slowly (or not at all) over a socket of its own, which the test can destroy. */
export interface SlowUpload {
  /** The server's answer; undefined if the connection ended without one. */
  answer: Promise<WireResponse | undefined>;
  /** Ends the connection (after the test, or to stop sending). */
  destroy(): void;
}

/**
 * Over a real socket: the head announcing the whole body, its first `firstBytes` bytes, then one more byte every
 * `byteEveryMs` (never, if undefined) until the server answers or the body is all sent.
 */
export function openSlowUpload(
  baseUrl: string,
  path: string,
  wire: WireRequest,
  firstBytes: number,
  byteEveryMs?: number,
): SlowUpload {
  const { hostname, port } = new URL(baseUrl);
  const body = Buffer.from(wire.body ?? new Uint8Array());
  const headers = { ...wire.headers, host: `${hostname}:${port}`, "content-length": String(body.byteLength) };
  const head = `${wire.method} ${path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")}\r\n`;
  let sent = firstBytes;
  let timer: ReturnType<typeof setInterval> | undefined;
  const socket = connect(Number(port), hostname, () => {
    socket.write(head);
    socket.write(body.subarray(0, sent));
    if (byteEveryMs === undefined) return;
    timer = setInterval(() => {
      if (sent >= body.byteLength || socket.destroyed) return clearInterval(timer);
      socket.write(body.subarray(sent, ++sent));
    }, byteEveryMs);
  });
  const answer = new Promise<WireResponse | undefined>((resolve) => {
    const received: Buffer[] = [];
    let complete: WireResponse | undefined;
    socket.on("data", (chunk: Buffer) => {
      received.push(chunk);
      complete = completeResponse(Buffer.concat(received).toString("utf8"));
      if (complete) socket.destroy();
    });
    socket.on("close", () => {
      clearInterval(timer);
      resolve(complete);
    });
    socket.on("error", () => {});
  });
  return { answer, destroy: () => socket.destroy() };
}
