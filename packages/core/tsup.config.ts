import { packageBuild } from "../../config/tsup";

// The entries share one chunk in both formats, so `@tidings/core`, `/adapter` and `/node` share one
// WebhookVerificationError class (instanceof holds across them) instead of each bundling a copy.
export default packageBuild({
  entry: ["src/index.ts", "src/adapter.ts", "src/node.ts"],
  platform: "neutral",
  splitting: true,
});
