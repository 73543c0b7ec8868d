// `prisma generate` with no download, for the @tidings/postgres Prisma test and the README-blocks check.
//
// The Prisma CLI fetches its schema engine (from binaries.prisma.sh) before every `generate`, which never runs it, and
// @prisma/engines' postinstall tries the same fetch (failing silently). Naming an engine file that exists skips both
// fetches: this file stands in, as nothing here runs the engine (`migrate` and `db push` would). The update check,
// another request, is turned off as well.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const PRISMA_OFFLINE_ENV = {
  PRISMA_SCHEMA_ENGINE_BINARY: fileURLToPath(import.meta.url),
  CHECKPOINT_DISABLE: "1",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};

/** The `prisma` package that `cwd` resolves. */
export function prismaPackage(cwd) {
  const require = createRequire(join(cwd, "noop.js"));
  return { manifest: require.resolve("prisma/package.json"), cli: require.resolve("prisma/build/index.js") };
}

/** Runs `prisma generate --schema <schema>` in `cwd` with the `prisma` that `cwd` resolves; throws if it fails. */
export function prismaGenerate(schema, cwd) {
  const result = spawnSync(process.execPath, [prismaPackage(cwd).cli, "generate", "--schema", schema], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...PRISMA_OFFLINE_ENV },
  });
  if (result.status !== 0) {
    throw new Error(`prisma generate failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  }
}
