import { packageBuild } from "../../config/tsup";

export default [
  // Two entries share one chunk in both formats, so `@tidings/core` and `@tidings/core/node` share one
  // WebhookVerificationError class (instanceof holds across them) instead of each bundling a copy.
  packageBuild({
    entry: ["src/index.ts", "src/node.ts"],
    platform: "neutral",
    splitting: true,
    clean: ["!dispatch.*"],
  }),
  // Queue packages' entry, built on its own: sharing the chunks above would grow the main entry's bundle.
  packageBuild({ entry: ["src/dispatch.ts"], platform: "neutral", clean: false }),
];
