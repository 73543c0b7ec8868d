import { packageBuild } from "../../config/tsup";

// Two entries share one chunk in both formats, so `@tidings/core` and `@tidings/core/node` share one
// WebhookVerificationError class (instanceof holds across them) instead of each bundling a copy.
export default packageBuild({ entry: ["src/index.ts", "src/node.ts"], platform: "neutral", splitting: true });
