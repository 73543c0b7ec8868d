import { packageTests } from "../../config/vitest";

export default packageTests("bullmq", { hookTimeout: 60_000, testTimeout: 120_000 });
