import { packageTests } from "../../config/vitest";

export default packageTests("opentelemetry", { hookTimeout: 60_000, testTimeout: 60_000 });
