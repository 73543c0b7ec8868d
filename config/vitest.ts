import { defineProject } from "vitest/config";

/** Tests run against TypeScript sources through the `@tidings/source` export condition: no build needed. */
export function packageTests(name: string, test: Record<string, unknown> = {}) {
  return defineProject({
    resolve: { conditions: ["@tidings/source"] },
    ssr: { resolve: { conditions: ["@tidings/source"] } },
    test: { name, ...test },
  });
}
