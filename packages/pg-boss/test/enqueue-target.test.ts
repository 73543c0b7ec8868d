import { PgBoss } from "pg-boss";
import { describe, expect, it } from "vitest";
import { type EnqueueTarget, enqueueTo } from "../src";

// Never started: the shape is checked when the handler is made, before any delivery or connection.
const boss = new PgBoss({ connectionString: "postgres://127.0.0.1:1/none" });
const RIGHT_SHAPE = /enqueueTo\(\{ boss, queue: "deliveries" \}/;

describe("enqueueTo's target", () => {
  it("refuses pg-boss's send(name, …) order, naming the shape it takes", () => {
    const oldShape = enqueueTo as unknown as (boss: PgBoss, queue: string) => unknown;
    expect(() => oldShape(boss, "deliveries")).toThrow(TypeError);
    expect(() => oldShape(boss, "deliveries")).toThrow(RIGHT_SHAPE);
  });

  it("refuses a target without a PgBoss or without a queue name", () => {
    for (const target of [undefined, {}, { boss }, { boss, queue: "" }, { boss: {}, queue: "deliveries" }]) {
      expect(() => enqueueTo(target as unknown as EnqueueTarget)).toThrow(RIGHT_SHAPE);
    }
  });

  it("takes { boss, queue }", () => {
    expect(typeof enqueueTo({ boss, queue: "deliveries" })).toBe("function");
  });
});
