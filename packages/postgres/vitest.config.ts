import { packageTests } from "../../config/vitest";

export default packageTests("postgres", { hookTimeout: 30_000, testTimeout: 60_000 });
