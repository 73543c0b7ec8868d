import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers";

const base = ["emulate", "-w", "http://127.0.0.1:9/webhooks", "-s", "x", "--port", "0"];

describe("tidings emulate's chaos and dashboard flags", () => {
  it.each([
    [["--duplicates", "1.5"], "--duplicates"],
    [["--reorder", "-1"], "--reorder"],
    [["--delay", "500-10"], "--delay"],
    [["--delay", "fast"], "--delay"],
    [["--clock-skew", "-5"], "--clock-skew"],
    [["--seed", "x"], "--seed"],
    [["--ui-port", "70000"], "--ui-port"],
  ])("refuses %j with one line naming the flag", async (flags, name) => {
    const run = await runCli([...base, ...flags]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^error: option '${name}[^\\n]*\\n$`));
  });

  it("says which ports it could not listen on when the dashboard's is taken", async () => {
    const taken = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => taken.once("listening", resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const run = await runCli([...base, "--ui-port", String(port)]);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`error: cannot listen on 127.0.0.1, ports 0 and ${port} (--ui-port): EADDRINUSE\n`);
    } finally {
      taken.close();
    }
  });
});
