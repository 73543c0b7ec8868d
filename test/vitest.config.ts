import { packageTests } from "../config/vitest";

export default packageTests("tests", { testTimeout: 30_000, hookTimeout: 120_000 });
