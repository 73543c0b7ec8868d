import { describe, expect, it } from "vitest";
import { runCli } from "./helpers";

// The queue commands themselves are tested against real Redis and PostgreSQL in packages/bullmq and packages/pg-boss.
describe("tidings queue", () => {
  it("needs one engine: --redis or --postgres", async () => {
    const result = await runCli(["queue", "stats", "--queue", "deliveries"]);
    expect([result.code, result.stderr]).toEqual([
      1,
      "error: give the queue's engine: --redis <url> (BullMQ) or --postgres <url> (pg-boss)\n",
    ]);
  });

  it.runIf(Number(process.versions.node.split(".")[0]) < 22)(
    "says pg-boss needs Node 22.12 on an older Node",
    async () => {
      const result = await runCli([
        "queue",
        "failed",
        "--postgres",
        "postgres://127.0.0.1/app",
        "--queue",
        "deliveries",
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `error: --postgres uses pg-boss, which needs Node.js ≥ 22.12; this is Node.js ${process.versions.node}\n`,
      );
    },
  );

  it("retry needs ids or --all, not both", async () => {
    const both = await runCli(["queue", "retry", "id1", "--all", "--redis", "redis://127.0.0.1:1", "-q", "deliveries"]);
    expect([both.code, both.stderr]).toEqual([1, "error: give job ids or --all\n"]);
  });
});
