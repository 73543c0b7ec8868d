import { packageTests } from "../../config/vitest";

export default packageTests("redis", { hookTimeout: 30_000 });
