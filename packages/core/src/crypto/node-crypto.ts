import type { SignedContent } from "./signed-content";

export type NodeCrypto = typeof import("node:crypto");

interface ProcessWithBuiltins {
  getBuiltinModule?: (id: string) => unknown;
}

let nodeCrypto: NodeCrypto | null | undefined;

/**
 * node:crypto when the runtime has it (Node, Bun, Deno), found at run time so that bundles for
 * runtimes without it (edge, Workers) never contain a static import they cannot resolve.
 */
export function findNodeCrypto(): NodeCrypto | undefined {
  if (nodeCrypto === undefined) {
    const proc = (globalThis as { process?: ProcessWithBuiltins }).process;
    nodeCrypto = (proc?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined) ?? null;
  }
  return nodeCrypto ?? undefined;
}

/** `caller` names the function for the error message; `alternative` the one that works without node:crypto. */
export function requireNodeCrypto(caller: string, alternative?: string): NodeCrypto {
  const crypto = findNodeCrypto();
  if (crypto === undefined) {
    const instead = alternative ? `; use ${alternative}() instead, it uses Web Crypto here` : "";
    throw new Error(`${caller}() needs node:crypto, which this runtime does not provide${instead}.`);
  }
  return crypto;
}

export function hmacWithNodeCrypto(crypto: NodeCrypto, secret: string, prefix: string, payload: Uint8Array): Buffer {
  return crypto.createHmac("sha256", secret).update(prefix).update(payload).digest();
}

export function matchWithNodeCrypto(crypto: NodeCrypto, content: SignedContent, secrets: readonly string[]): number {
  const candidates = content.signatures.map((hex) => Buffer.from(hex, "hex"));
  for (let index = 0; index < secrets.length; index++) {
    const expected = hmacWithNodeCrypto(crypto, secrets[index] as string, content.prefix, content.payload);
    for (const candidate of candidates) {
      if (crypto.timingSafeEqual(expected, candidate)) return index;
    }
  }
  return -1;
}
