import { packageTests } from "../../config/vitest";

export default packageTests("cli", { testTimeout: 30_000 });
