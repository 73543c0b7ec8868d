import { mergeConfig } from "vitest/config";
import { packageTests } from "../../config/vitest";

// NestJS 12, the workspace's. `npm test` runs vitest.nest11.config.ts after it: the same tests on NestJS 11.
export default mergeConfig(packageTests("nestjs (Nest 12)"), { test: { provide: { nestMajor: 12 } } });
