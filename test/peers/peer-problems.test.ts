import { describe, expect, it } from "vitest";
import { peerProblems } from "./peer-problems.mjs";

const bullmq = { name: "@tidings/bullmq", peerDependencies: { bullmq: "^6.7.0", ioredis: "^5.4.0" }, readme: "# x" };

describe("peerProblems", () => {
  it("passes ranges that admit the registry's latest release", () => {
    expect(peerProblems([bullmq], { bullmq: "6.7.0", ioredis: "5.9.2" })).toEqual([]);
  });

  it("reports a range that refuses the latest major", () => {
    expect(peerProblems([bullmq], { bullmq: "6.7.0", ioredis: "6.0.0" })).toEqual([
      '@tidings/bullmq: peer ioredis@"^5.4.0" refuses ioredis@6.0.0, what `npm i ioredis` installs today; ' +
        "widen the range (and test on it), or say in its README why `ioredis@6` is excluded",
    ]);
  });

  it("accepts a refused major the README excludes in words, and only that major", () => {
    const readme = "`ioredis@6` is excluded until BullMQ supports it: its connection options changed.";
    const excluded = { ...bullmq, readme };
    expect(peerProblems([excluded], { bullmq: "6.7.0", ioredis: "6.0.0" })).toEqual([]);
    expect(peerProblems([excluded], { bullmq: "6.7.0", ioredis: "7.0.0" })).toHaveLength(1);
    expect(
      peerProblems([{ ...bullmq, readme: "works with `ioredis@6`" }], { bullmq: "6.7.0", ioredis: "6.0.0" }),
    ).toHaveLength(1);
  });

  it("reports a peer the registry has no latest release of", () => {
    expect(peerProblems([bullmq], { bullmq: "6.7.0" })).toEqual([
      "@tidings/bullmq: the registry has no latest version of ioredis",
    ]);
  });
});
