import { packageTests } from "../config/vitest";

export default packageTests("conformance", { testTimeout: 30_000, hookTimeout: 120_000 });
