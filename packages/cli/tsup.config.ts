import type { Options } from "tsup";
import { packageBuild } from "../../config/tsup";

/** The `tidings` binary: ESM only, no declarations, made executable by tsup because of the shebang. */
export const binBuild: Options = {
  entry: ["src/bin.ts"],
  format: ["esm"],
  dts: false,
  clean: false,
  banner: { js: "#!/usr/bin/env node" },
};

export default [
  // The library (startEmulator and friends). Its clean spares the binary, which the second build writes.
  packageBuild({ clean: ["!bin.js", "!bin.js.map"] }),
  packageBuild(binBuild),
];
