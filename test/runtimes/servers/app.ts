// One Web-standard app for every runtime under test: the BUILT @tidings/fetch handler on /webhooks, plus the
// probes the runner reads. Each runtime's entry (bun.ts, deno.ts, worker.ts) only serves it.
import { createReceiver, verify, verifyAsync } from "@tidings/core";
import { createFetchHandler } from "@tidings/fetch";

/** The runner (../run.mjs) signs its deliveries with the same secret. */
export const SECRET = "whsec_runtime_matrix";

export interface RuntimeName {
  name: string;
  version: string;
  /** Where `@tidings/core` was loaded from, when the runtime can tell (import.meta.resolve). */
  coreModule?: string;
}

interface VectorRequest {
  name: string;
  secret: string;
  timestamp: number;
  bodyBase64: string;
  signature: string;
}

type Outcome = "ok" | `error: ${string}`;

interface ProcessWithBuiltins {
  getBuiltinModule?: (id: string) => unknown;
}

/** Mirrors core's own lookup (src/runtime.ts): node:crypto and node:zlib only through process.getBuiltinModule. */
function capabilities() {
  const proc = (globalThis as { process?: ProcessWithBuiltins }).process;
  const getBuiltinModule = typeof proc?.getBuiltinModule === "function";
  const builtin = (id: string) => {
    try {
      return getBuiltinModule && proc?.getBuiltinModule?.(id) !== undefined;
    } catch {
      return false;
    }
  };
  const nodeCrypto = builtin("node:crypto");
  const nodeZlib = builtin("node:zlib");
  return {
    getBuiltinModule,
    nodeCrypto,
    cryptoPath: nodeCrypto ? "node:crypto" : "Web Crypto",
    bodyDecoding: nodeZlib ? "node:zlib" : "DecompressionStream",
  };
}

function bytesOf(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function describe(error: unknown): Outcome {
  return `error: ${error instanceof Error ? error.message : String(error)}`;
}

/** Known-answer vectors through both `verify` (sync, node:crypto) and `verifyAsync` (whatever the runtime has). */
async function checkVectors(vectors: readonly VectorRequest[]) {
  const results: { name: string; sync: Outcome; async: Outcome }[] = [];
  for (const vector of vectors) {
    const body = bytesOf(vector.bodyBase64);
    const header = `t=${vector.timestamp},v1=${vector.signature}`;
    const options = { now: () => vector.timestamp * 1000 };
    let sync: Outcome = "ok";
    try {
      verify(body, header, vector.secret, options);
    } catch (error) {
      sync = describe(error);
    }
    let async: Outcome = "ok";
    try {
      await verifyAsync(body, header, vector.secret, options);
    } catch (error) {
      async = describe(error);
    }
    results.push({ name: vector.name, sync, async });
  }
  return results;
}

export function createApp(runtime: RuntimeName): (request: Request) => Promise<Response> {
  const delivered: string[] = [];
  const receiver = createReceiver({ secret: SECRET }).on("message.delivered", (event) => {
    delivered.push(event.data.id);
  });
  const handle = createFetchHandler(receiver);
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/webhooks") return handle(request);
    if (pathname === "/info") return Response.json({ ...runtime, ...capabilities() });
    if (pathname === "/delivered") return Response.json(delivered);
    if (pathname === "/vectors" && request.method === "POST") {
      return Response.json(await checkVectors((await request.json()) as VectorRequest[]));
    }
    return new Response("not found", { status: 404 });
  };
}
