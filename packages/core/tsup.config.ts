import { packageBuild } from "../../config/tsup";

export default [
  // The entries share one chunk in both formats, so `@tidings/core`, `/adapter`, `/node` and `/schemes` share one
  // WebhookVerificationError class (instanceof holds across them) instead of each bundling a copy. The declarations
  // of all five entries come from this build: two builds writing declarations into one folder race.
  packageBuild({
    entry: {
      index: "src/entries/index.ts",
      adapter: "src/entries/adapter.ts",
      node: "src/entries/node.ts",
      schemes: "src/entries/schemes.ts",
    },
    dts: {
      entry: {
        index: "src/entries/index.ts",
        adapter: "src/entries/adapter.ts",
        node: "src/entries/node.ts",
        dispatch: "src/entries/dispatch.ts",
        schemes: "src/entries/schemes.ts",
      },
    },
    platform: "neutral",
    splitting: true,
    clean: ["!dispatch.js", "!dispatch.cjs", "!dispatch.js.map", "!dispatch.cjs.map"],
  }),
  // Queue packages' entry, built on its own: sharing the chunks above would grow the main entry's bundle.
  packageBuild({ entry: ["src/entries/dispatch.ts"], dts: false, platform: "neutral", clean: false }),
];
