import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { CHARTS } from "../../bench/charts/specs";
import { type BarChart, barChart } from "../../bench/charts/svg";
import type { Summary } from "../../bench/lib/stats";
import type { VerifyResults } from "../../bench/verify/suite";

const BENCH = join(import.meta.dirname, "..", "..", "bench");

/** Well-formed XML: one root, every tag closed in order, attributes quoted, no entity but the five XML defines. */
function expectWellFormed(xml: string): void {
  const stack: string[] = [];
  let roots = 0;
  let read = 0;
  const escaped = (text: string) => !text.replace(/&(amp|lt|gt|quot|apos);/g, "").includes("&");
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|[^<]+/gy;
  for (const [whole, closing, name, attributes = "", selfClosing] of xml.matchAll(token)) {
    read += whole.length;
    if (name === undefined) {
      expect(stack.length > 0 || whole.trim() === "", `text outside the root: ${whole}`).toBe(true);
      expect(escaped(whole), `unescaped text: ${whole}`).toBe(true);
    } else if (closing) {
      expect(stack.pop(), `</${name}> closes another element`).toBe(name);
    } else {
      expect(escaped(attributes), `unescaped attribute in <${name}>`).toBe(true);
      if (stack.length === 0) roots++;
      if (!selfClosing) stack.push(name);
    }
  }
  expect(read, "stopped at something that is not XML").toBe(xml.length);
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
}

/** The bars drawn: each a <rect> with a <title> naming its series and value. */
function bars(svg: string): { width: number; title: string }[] {
  return [...svg.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)"[^>]*><title>([^<]*)<\/title>/g)].map(
    ([, width, title]) => ({ width: Number(width), title: title ?? "" }),
  );
}

const chart: BarChart = {
  title: "Cost <per> call & more",
  axis: "µs per call",
  series: ["floor", "ours"],
  groups: [
    { label: "256 B", bars: [{ value: 1 }, { value: 2, range: [1.5, 2.5] }] },
    { label: "1 MiB", bars: [{ value: 3, label: "3 µs" }, undefined] },
  ],
};

describe("barChart", () => {
  const svg = barChart(chart);

  it("is a well-formed, self-contained SVG with a size, a viewBox and a white background", () => {
    expectWellFormed(svg);
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="800" height="[\d.]+" viewBox="0 0 800 [\d.]+"/,
    );
    expect(svg).toContain(`<rect width="100%" height="100%" fill="#fff"/>`);
    expect(svg).not.toMatch(/<script|<style|href=|url\(|@import/);
    expect(svg).toContain("Cost &lt;per&gt; call &amp; more");
    expect(svg).toContain(">µs per call</text>");
  });

  it("draws one bar per value, named by its series, and labels every group and series", () => {
    expect(bars(svg).map((bar) => bar.title)).toEqual(["floor: 1", "ours: 2", "floor: 3 µs"]);
    for (const label of ["256 B", "1 MiB", "floor", "ours"]) expect(svg).toContain(`>${label}</text>`);
  });

  it("draws a value twice as large twice as long, from zero", () => {
    const [one, two, three] = bars(svg).map((bar) => bar.width);
    expect(two).toBeCloseTo(2 * (one as number), 0);
    expect(three).toBeCloseTo(3 * (one as number), 0);
  });

  it("draws the min–max range as a whisker", () => {
    expect(svg.match(/<path d="M[\d. ]+H[\d.]+M/g)).toHaveLength(1);
  });
});

const summary = (median: number): Summary => ({ median, min: median, max: median, n: 1 });
const verifyRow = (id: string, vsFloor: number, ns: number) => ({
  id,
  label: id,
  group: "tidings" as const,
  nsPerOp: summary(ns),
  vsFloor: summary(vsFloor),
  vsFloorParse: summary(vsFloor),
});
const settings = { rounds: 1, passes: 1, timeMs: 1, warmupMs: 1, sizes: [256, 4096] };
const verify: VerifyResults = {
  settings,
  sizes: [
    { size: 256, rows: [verifyRow("floor", 1, 3000), verifyRow("verify", 1.1, 3300), verifyRow("stripe", 1.5, 4500)] },
    { size: 4096, rows: [verifyRow("floor", 1, 6000), verifyRow("verify", 1.05, 6300), verifyRow("stripe", 3, 18000)] },
  ],
};

describe("the verify chart", () => {
  it("draws a bar per row of the table for the floor, verify and Stripe, at each size", () => {
    const spec = CHARTS.verify?.({ verify });
    const drawn = bars(barChart(spec as BarChart));
    expect(drawn).toHaveLength(6);
    expect(drawn[5]?.title).toBe("Stripe webhooks.signature.verifyHeader: 3.00× · 18.0 µs");
    expect((drawn[5]?.width as number) / (drawn[0]?.width as number)).toBeCloseTo(3, 1);
  });
});

describe("a report run", () => {
  const dir = mkdtempSync(join(tmpdir(), "tidings-bench-report-"));
  const out = join(dir, "BENCHMARKS.md");
  const run = (...args: string[]) =>
    promisify(execFile)(process.execPath, ["--import", "tsx/esm", "run.ts", ...args, `--out=${out}`], { cwd: BENCH });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes the suite's results and chart beside the report and links the chart", async () => {
    await run("--quick", "--only=verify");
    const report = readFileSync(out, "utf8");
    expect(report).toMatch(/\n!\[Verifying one delivery[^\]]*\]\(bench-charts\/verify\.svg\)\n/);
    expectWellFormed(readFileSync(join(dir, "bench-charts", "verify.svg"), "utf8"));
    const stored = JSON.parse(readFileSync(join(dir, "bench-charts", "verify.json"), "utf8"));
    expect(stored.verify.sizes.map((entry: { size: number }) => entry.size)).toEqual([256, 4096, 65536, 1048576]);
  }, 120_000);

  it("draws the section and chart again from the stored results, measuring nothing", async () => {
    writeFileSync(join(dir, "bench-charts", "verify.json"), JSON.stringify({ verify }));
    const { stderr } = await run("--rerender");
    expect(stderr).toContain("drawing verify from");
    const report = readFileSync(out, "utf8");
    expect(report).toContain("| stripe | 4.50 | 222,222 | 1.500 |  |");
    expect(report).not.toContain("### 64 KiB");
    const svg = readFileSync(join(dir, "bench-charts", "verify.svg"), "utf8");
    expect(bars(svg).map((bar) => bar.title)).toContain("Stripe webhooks.signature.verifyHeader: 3.00× · 18.0 µs");
  }, 120_000);
});
