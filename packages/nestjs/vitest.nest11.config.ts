import { fileURLToPath } from "node:url";
import { mergeConfig } from "vitest/config";
import { packageTests } from "../../config/vitest";

// NestJS 11 lives in its own workspace (fixtures/nest11) beside the workspace's NestJS 12. Aliasing the bare
// @nestjs/* imports of the sources and tests there runs every test on that major: Nest's own packages then
// resolve each other inside that folder, so one app never mixes the two.
const NEST_11 = fileURLToPath(new URL("../../fixtures/nest11/node_modules/@nestjs/", import.meta.url));

export default mergeConfig(packageTests("nestjs (Nest 11)"), {
  test: {
    // The shared conformance suite's NestJS targets too; the test workspace runs them on NestJS 12.
    include: ["test/**/*.test.ts", "../../test/conformance/nestjs.test.ts"],
    provide: { nestMajor: 11 },
  },
  resolve: {
    alias: [
      {
        find: /^@nestjs\/(common|config|core|platform-express|platform-fastify|testing)(\/package\.json)?$/,
        replacement: `${NEST_11}$1$2`,
      },
    ],
  },
});
