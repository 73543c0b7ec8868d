import { packageBuild } from "../../config/tsup";

// The entries share one chunk in both formats, so `@tidings/core`, `/node` and `/dispatch` share one
// WebhookVerificationError class (instanceof holds across them) instead of each bundling a copy.
export default packageBuild({
  entry: ["src/index.ts", "src/node.ts", "src/dispatch.ts"],
  platform: "neutral",
  splitting: true,
});
