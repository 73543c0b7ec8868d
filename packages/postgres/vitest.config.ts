import { packageTests } from "../../config/vitest";

export default packageTests("postgres", { testTimeout: 60_000 });
