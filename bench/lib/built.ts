import { fileURLToPath } from "node:url";

const ENTRY_POINTS = [
  "@tidings/core",
  "@tidings/core/node",
  "@tidings/express",
  "@tidings/fastify",
  "@tidings/koa",
  "@tidings/fetch",
  "@tidings/next",
  "@tidings/bullmq",
  "@tidings/pg-boss",
];

/**
 * The benchmarks measure what users run: each @tidings entry point must resolve to its built `dist`, never to its
 * TypeScript source (the `@tidings/source` condition is for tests only).
 */
export function assertBuiltPackages(): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const name of ENTRY_POINTS) {
    const path = fileURLToPath(import.meta.resolve(name));
    if (!/[/\\]dist[/\\][\w-]+\.js$/.test(path)) {
      throw new Error(
        `${name} resolves to ${path}, not its built dist: run the build, and do not pass --conditions=@tidings/source`,
      );
    }
    resolved[name] = path;
  }
  return resolved;
}
