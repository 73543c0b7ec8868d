import { packageTests } from "../../config/vitest";

export default packageTests("pg-boss", { hookTimeout: 60_000, testTimeout: 120_000 });
