import type { CheckReport } from "@tidings/cli";
import { afterEach, describe, expect, it } from "vitest";
import { tidings } from "./cli";
import { EXAMPLES, type RunningExample } from "./example-servers";

const SECRET = "whsec_e2e_check";
let example: RunningExample | undefined;
afterEach(async () => {
  await example?.close();
  example = undefined;
});

describe.each(Object.keys(EXAMPLES))("`tidings check` against the %s example", (name) => {
  it("passes every probe, and the CLI exits 0", async () => {
    example = await (EXAMPLES[name] as (secret: string) => Promise<RunningExample>)(SECRET);
    const checked = await tidings(["check", "--url", `${example.url}/webhooks`, "--secret", SECRET, "--json"]);
    const report = JSON.parse(checked.stdout) as CheckReport;
    expect(report.results.filter((result) => !result.pass)).toEqual([]);
    expect(report.results).toHaveLength(12);
    expect(checked.code).toBe(0);
  });
});
