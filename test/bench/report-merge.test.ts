import { describe, expect, it } from "vitest";
import { type RunReport, separateRunRow } from "../../bench/report";
import { mergeReport } from "../../bench/report-merge";

const report = (errors: string[], targetRows: string[], httpTable: string[], sections: string) =>
  [
    "# Benchmarks",
    "",
    "## Machine and commands",
    "",
    "|  |  |",
    "| --- | --- |",
    "| mode | full |",
    "",
    ...(errors.length > 0 ? ["## Errors", "", ...errors, ""] : []),
    "## Targets",
    "",
    "| target | measured | status |",
    "| --- | --- | --- |",
    ...targetRows,
    "",
    "| adapter | instructions ÷ ideal | status | req/s ÷ ideal |",
    "| --- | --- | --- | --- |",
    ...httpTable,
    "",
    sections,
  ].join("\n");

const full = report(
  ["- http express: 1000/2000 answered 200", "- queue bullmq: Redis refused"],
  ["| verify at 4 KiB | 1.05× | met |"],
  ["| express | 1.021× | met |  |", "| koa | 1.016× | met |  |"],
  "## 2. HTTP\n\nold http figures\n\n## 4. Instructions\n\ninstruction figures\n",
);

const httpRun = report(
  [],
  [],
  ["| express | not run | n/a | 0.947× |", "| koa | not run | n/a | 0.934× |"],
  "## 2. HTTP\n\nnew http figures\n",
);

const suites = { names: ["http"], keys: ["## 2."] };
const merge = (partial: string) =>
  mergeReport(full, partial, { names: ["http"], keys: ["## 2."] }, "| http: measured in a run of its own | today |");

describe("mergeReport", () => {
  it("fills a row that joins two suites' figures cell by cell, keeping what the run did not measure", () => {
    const merged = merge(httpRun);
    expect(merged).toContain("| express | 1.021× | met | 0.947× |");
    expect(merged).toContain("| koa | 1.016× | met | 0.934× |");
    expect(merged).not.toContain("not run");
  });

  it("replaces the errors of the suites it ran and keeps the others'", () => {
    const merged = merge(httpRun);
    expect(merged).not.toContain("- http express");
    expect(merged).toContain("- queue bullmq: Redis refused");
  });

  it("drops the errors section once no error is left, and adds the run's own errors", () => {
    const clean = mergeReport(full, httpRun, { names: ["http", "queue"], keys: ["## 2."] }, "| again | today |");
    expect(clean).not.toContain("## Errors");
    const failing = report(["- http koa: refused"], [], ["| koa | not run | n/a |  |"], "## 2. HTTP\n\nnew\n");
    expect(merge(failing)).toMatch(/## Errors\n\n- queue bullmq: Redis refused\n- http koa: refused\n/);
  });

  it("adds a section named with a colon that the report lacks, and replaces it on the next run", () => {
    const schemesRun = (figures: string) =>
      report([], [], [], `## Schemes: each sender's verify against its floor\n\n${figures}\n`);
    const suites = { names: ["schemes"], keys: ["## Schemes"] };
    const added = mergeReport(full, schemesRun("first figures"), suites, "| schemes | today |");
    expect(added).toContain("## Schemes: each sender's verify against its floor\n\nfirst figures");
    const replaced = mergeReport(added, schemesRun("second figures"), suites, "| schemes | later |");
    expect(replaced).toContain("second figures");
    expect(replaced).not.toContain("first figures");
    expect(replaced).toContain("instruction figures");
  });

  it("takes the run's text above the first section, and records no run when given no row", () => {
    const merged = mergeReport(
      full,
      httpRun.replace("# Benchmarks", "# Benchmarks, described anew"),
      suites,
      undefined,
    );
    expect(merged.startsWith("# Benchmarks, described anew\n")).toBe(true);
    expect(merged).not.toContain("measured in a run of its own");
  });

  it("takes the run's text above the targets table, which says how the targets are judged", () => {
    const withIntro = (text: string, report: string) => report.replace("## Targets\n", `## Targets\n\n${text}\n`);
    const merged = merge(withIntro("Judged anew.", httpRun));
    expect(merged).toContain("## Targets\n\nJudged anew.\n\n| target | measured | status |");
    expect(
      mergeReport(withIntro("Judged of old.", full), withIntro("Judged anew.", httpRun), suites, undefined),
    ).not.toContain("Judged of old.");
  });

  it("replaces only the sections of the suites it ran, and records the run in the machine table", () => {
    const merged = merge(httpRun);
    expect(merged).toContain("new http figures");
    expect(merged).not.toContain("old http figures");
    expect(merged).toContain("instruction figures");
    expect(merged).toContain("| http: measured in a run of its own | today |");
    expect(merged).toContain("| verify at 4 KiB | 1.05× | met |");
  });

  it("keeps the full run's row beside a later run of some schemes, which names them", () => {
    const rowOf = (schemes?: string[]) =>
      separateRunRow({
        machine: { date: "today", loadAverage: "1" },
        loadAtEnd: "2",
        seconds: { total: 60 },
        command: "run.ts",
        options: { suites: new Set(["schemes"]), schemes },
      } as unknown as RunReport);
    const schemes = { names: ["schemes"], keys: ["## Schemes"] };
    const once = mergeReport(full, "# Benchmarks\n", schemes, rowOf());
    const twice = mergeReport(once, "# Benchmarks\n", schemes, rowOf(["paddle", "mux"]));
    expect(twice).toContain("| schemes: measured in a run of its own | today, load 1 / 2, 60 s: `run.ts` |");
    expect(twice).toContain("| schemes (paddle, mux): measured in a run of its own |");
  });
});
