interface ProcessWithBuiltins {
  getBuiltinModule?: (id: string) => unknown;
}

/**
 * A Node built-in module when the runtime has one (Node ≥ 20.16, Bun, Deno), found at run time so that
 * bundles for runtimes without it (edge functions, Workers) never hold a static import they cannot resolve.
 */
export function nodeBuiltin<Module>(id: `node:${string}`): Module | undefined {
  const proc = (globalThis as { process?: ProcessWithBuiltins }).process;
  try {
    return proc?.getBuiltinModule?.(id) as Module | undefined;
  } catch {
    // Next.js's Edge sandbox defines process functions that throw "not supported in the Edge Runtime".
    return undefined;
  }
}
