import { defineProject } from "vitest/config";

/**
 * Tests run against TypeScript sources through the `@tidings/source` export condition: no build needed.
 * The timeouts are budgets, not measurements: CI runs every package's tests at once on two cores, where a test that
 * makes a few hundred round trips to a real server can take several times as long as it does alone.
 */
export function packageTests(name: string, test: Record<string, unknown> = {}) {
  return defineProject({
    resolve: { conditions: ["@tidings/source"] },
    ssr: { resolve: { conditions: ["@tidings/source"] } },
    test: { name, testTimeout: 30_000, hookTimeout: 60_000, ...test },
  });
}
