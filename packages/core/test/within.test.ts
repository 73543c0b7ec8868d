import { describe, expect, it } from "vitest";
import { afterFakeTime } from "../../../test/support/wait";
import { within } from "../src/ground/within";

describe("within", () => {
  it("resolves with the operation's value, without describing it", async () => {
    let described = 0;
    const describe = () => {
      described++;
      return "the call";
    };
    await expect(within(Promise.resolve(7), 1000, describe)).resolves.toBe(7);
    expect(described).toBe(0);
  });

  it("passes on the operation's own rejection", async () => {
    const failure = new Error("connection refused");
    await expect(within(Promise.reject(failure), 1000, () => "the call")).rejects.toBe(failure);
  });

  it("rejects, naming the call, once the time is out and the operation has not settled", async () => {
    const never = new Promise<never>(() => {});
    // On the fake clock, moved past 40 ms and the eighth more a shared deadline may take.
    await expect(afterFakeTime(50, () => within(never, 40, () => "Adding the job"))).rejects.toThrow(
      "Adding the job did not complete within 40 ms",
    );
  });

  it("keeps the operation's outcome when it settles before the deadline, even with the deadline still pending", async () => {
    const late = new Promise<string>((resolve) => setImmediate(() => resolve("stored")));
    await expect(within(late, 200, () => "the call")).resolves.toBe("stored");
  });
});
