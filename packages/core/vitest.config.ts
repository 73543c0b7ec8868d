import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["@tidings/source"] },
  ssr: { resolve: { conditions: ["@tidings/source"] } },
  test: { name: "core" },
});
