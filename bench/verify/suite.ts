import { Bench } from "tinybench";
import { SECRET } from "../lib/deliveries";
import type { VerifySettings } from "../lib/options";
import { median, rotate, type Summary, summarize } from "../lib/stats";
import { buildCases, type CaseGroup, type VerifyCase } from "./cases";
import { stripeVerifier } from "./peers";

export interface VerifyRow {
  id: string;
  label: string;
  group: CaseGroup;
  /** Nanoseconds per verification (per round: median over passes of the median batch time / batch). */
  nsPerOp: Summary;
  /** This row's time / the floor's, per pass, in the same pass; per round the median over passes. */
  vsFloor: Summary;
  /** Same, against floor + JSON.parse (for the rows that also parse). */
  vsFloorParse: Summary;
}

export interface VerifySizeResult {
  size: number;
  rows: VerifyRow[];
}

export interface VerifyResults {
  settings: VerifySettings;
  sizes: VerifySizeResult[];
}

type Log = (line: string) => void;

/** One short tinybench run over every row: nanoseconds per operation, by row id. */
async function pass(
  cases: readonly VerifyCase[],
  settings: VerifySettings,
  index: number,
): Promise<Map<string, number>> {
  const timing = { time: settings.timeMs, warmupTime: settings.warmupMs, iterations: 8, warmupIterations: 2 };
  const bench = new Bench({ ...timing, throws: true });
  for (const testCase of rotate(cases, index)) bench.add(testCase.id, testCase.run);
  await bench.run();
  const nsPerOp = new Map<string, number>();
  for (const testCase of cases) {
    const result = bench.getTask(testCase.id)?.result;
    if (result?.state !== "completed") throw new Error(`verify ${testCase.id}: ${result?.state ?? "missing"}`);
    nsPerOp.set(testCase.id, (result.latency.p50 * 1e6) / testCase.batch);
  }
  return nsPerOp;
}

interface RoundResult {
  cases: VerifyCase[];
  ns: Map<string, number>;
  vsFloor: Map<string, number>;
  vsFloorParse: Map<string, number>;
}

/**
 * A round: several short passes, each timing every row back to back, so that a row and the floor are compared
 * within milliseconds of each other; the round keeps the median over its passes of each row's time and ratio.
 */
async function round(
  size: number,
  settings: VerifySettings,
  stripeVerify: (body: Buffer, header: string) => boolean,
  roundIndex: number,
): Promise<RoundResult> {
  // Fresh fixtures each round: peers check their timestamps against the clock.
  const cases = await buildCases(size, stripeVerify, size === settings.sizes[0]);
  const passes: Map<string, number>[] = [];
  for (let index = 0; index < settings.passes; index++) {
    passes.push(await pass(cases, settings, roundIndex * settings.passes + index));
  }
  const ns = (pass: Map<string, number>, id: string) => pass.get(id) as number;
  const over = (value: (pass: Map<string, number>, id: string) => number) =>
    new Map(cases.map(({ id }) => [id, median(passes.map((pass) => value(pass, id)))]));
  return {
    cases,
    ns: over(ns),
    vsFloor: over((pass, id) => ns(pass, id) / ns(pass, "floor")),
    vsFloorParse: over((pass, id) => ns(pass, id) / ns(pass, "floor-parse")),
  };
}

export async function runVerifySuite(settings: VerifySettings, log: Log): Promise<VerifyResults> {
  const stripeVerify = stripeVerifier(SECRET);
  const rounds = new Map<number, RoundResult[]>(settings.sizes.map((size) => [size, []]));
  for (let index = 0; index < settings.rounds; index++) {
    for (const size of settings.sizes) {
      const result = await round(size, settings, stripeVerify, index);
      rounds.get(size)?.push(result);
      const ratio = result.vsFloor.get("verify") as number;
      log(`verify round ${index + 1}/${settings.rounds}, ${size} B: verify/floor ${ratio.toFixed(3)}`);
    }
  }
  return {
    settings,
    sizes: settings.sizes.map((size) => {
      const results = rounds.get(size) ?? [];
      const across = (pick: (result: RoundResult) => Map<string, number>, id: string) =>
        summarize(results.map((result) => pick(result).get(id) as number));
      return {
        size,
        rows: (results[0]?.cases ?? []).map((testCase) => ({
          id: testCase.id,
          label: testCase.label,
          group: testCase.group,
          nsPerOp: across((result) => result.ns, testCase.id),
          vsFloor: across((result) => result.vsFloor, testCase.id),
          vsFloorParse: across((result) => result.vsFloorParse, testCase.id),
        })),
      };
    }),
  };
}
