import { packageTests } from "../../config/vitest";

// The real-app test builds and starts Next.js: generous limits for a loaded 2-core machine.
export default packageTests("next", { testTimeout: 30_000, hookTimeout: 180_000 });
