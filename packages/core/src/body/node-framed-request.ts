/**
 * Whether `request` is @hono/node-server's Request (Hono on Node; also what turns Node's requests into the Web
 * Requests of our Next.js App Router benchmark), built lazily over Node's `IncomingMessage`. Node's HTTP parser frames
 * that body: with a Content-Length, `arrayBuffer()` gets no more than that many bytes off the socket (unless the
 * server runs with `insecureHTTPParser`, which lets chunked framing win over a Content-Length). Its `body`,
 * by contrast, first builds a Web stream around the socket and a native Request around that, which more than
 * doubles an adapter's instructions per request.
 *
 * Recognised by its prototype: an own `arrayBuffer` and the symbol-keyed method that builds the native Request.
 * Anything else, a Request built by code included, is not recognised and is read as a bounded stream; so is this
 * one, should a new version of @hono/node-server rename that method.
 */
let lastPrototype: unknown = null;
let lastFramed = false;
/** The key under which that Request keeps Node's `IncomingMessage`, looked for on the first one read; null: none. */
let incomingKey: symbol | null | undefined;

export function isNodeFramedRequest(request: Request): boolean {
  const prototype: unknown = Object.getPrototypeOf(request);
  if (prototype !== lastPrototype) {
    lastFramed = prototype !== null && isLazyNodeRequestPrototype(prototype as object);
    lastPrototype = prototype;
  }
  return lastFramed;
}

function isLazyNodeRequestPrototype(prototype: object): boolean {
  return (
    Object.hasOwn(prototype, "arrayBuffer") &&
    Object.getOwnPropertySymbols(prototype).some((symbol) => symbol.description === "getRequestCache")
  );
}

interface SocketLike {
  readonly bytesRead: number;
}

/**
 * For a Request `isNodeFramedRequest` recognised: how many bytes its socket has read since now (the body's progress,
 * which `arrayBuffer()` does not show until the end). Undefined where the socket cannot be found.
 */
export function socketBytesRead(request: Request): (() => number) | undefined {
  incomingKey ??= Object.getOwnPropertySymbols(request).find((symbol) => symbol.description === "incomingKey") ?? null;
  const incoming =
    incomingKey && (request as unknown as Record<symbol, { socket?: SocketLike } | undefined>)[incomingKey];
  const socket = incoming?.socket;
  if (typeof socket?.bytesRead !== "number") return undefined;
  const before = socket.bytesRead;
  return () => socket.bytesRead - before;
}
