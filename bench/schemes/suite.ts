/**
 * Every scheme at 256 B, 4 KiB and 1 MiB: instructions per verification of Tidings, of the scheme's floor and of the
 * sender's own library, counted by callgrind in one process per scheme and size (the three take turns, window by
 * window), so the ratios hold on a loaded machine where wall time moves by more than the 10 % the target allows.
 */
import { CallgrindChild } from "../instructions/callgrind-child";
import { type Counted, countInTurns } from "../instructions/turns";
import { formatBytes } from "../lib/deliveries";
import { count, table } from "../lib/format";
import type { InstructionSettings } from "../lib/options";
import { buildSchemeCases } from "./cases";
import type { SchemeSide } from "./child";

export const SCHEME_SIZES = [256, 4096, 1024 * 1024] as const;

export interface SchemeRow {
  scheme: string;
  size: number;
  /** Instructions per verification in the quietest window: Tidings, the floor, the sender's library. */
  tidings: number;
  floor: number;
  peer?: { name: string; instructions: number };
  /** Tidings ÷ floor. */
  vsFloor: number;
  /** The sender's library ÷ Tidings: above 1, Tidings does less work. */
  peerVsTidings?: number;
}

/** At 256 B a scheme's own header work is a fixed cost the HMAC is too short to hide: it may cost this much more. */
export const SMALL_BODY_ALLOWANCE = 7_000;
export const SMALL_BODY_BYTES = 256;

/** The floor target: within SMALL_BODY_ALLOWANCE instructions of the floor at 256 B, within 1.10× from 4 KiB up. */
export function meetsFloorTarget({ size, tidings, floor, vsFloor }: SchemeRow): boolean {
  return size <= SMALL_BODY_BYTES ? tidings - floor <= SMALL_BODY_ALLOWANCE : vsFloor <= 1.1;
}

/** Fewer verifications per window as the body grows: a 1 MiB HMAC costs about 4,000 times a 256 B one. */
export function settingsFor(size: number, quick: boolean): InstructionSettings {
  if (quick) return { warmupRequests: 5, windows: 1, windowRequests: 2 };
  if (size > 100_000) return { warmupRequests: 30, windows: 3, windowRequests: 4 };
  return { warmupRequests: 3_000, windows: 5, windowRequests: 300 };
}

interface SchemeCount {
  schemes: { scheme: string; peer?: string }[];
  counted: Counted<string>;
}

/** Counts the sides (`<scheme>|floor`, `|tidings`, `|peer`) of the schemes `only` names (default: all) at one size. */
export async function countSchemes(
  size: number,
  settings: InstructionSettings,
  { only, functions = false }: { only?: string; functions?: boolean } = {},
): Promise<SchemeCount> {
  const child = new CallgrindChild("schemes/child.ts", {}, { functions });
  try {
    const prepared = await child.call<{ scheme: string; peer?: string }[]>("prepare", { size });
    const schemes = prepared.filter(({ scheme }) => only === undefined || scheme === only);
    if (schemes.length === 0) throw new Error(`no scheme ${only}: ${prepared.map(({ scheme }) => scheme).join(", ")}`);
    const sides = schemes.flatMap(({ scheme, peer }) =>
      (["floor", "tidings", ...(peer ? ["peer"] : [])] as SchemeSide[]).map((side) => `${scheme}|${side}`),
    );
    const counted = await countInTurns(
      new Map(sides.map((side) => [side, child])),
      settings,
      functions,
      (side, amount) => {
        const [scheme, which] = side.split("|");
        return child.call("run", { scheme, side: which, amount });
      },
    );
    return { schemes, counted };
  } finally {
    await child.stop();
  }
}

/** Each scheme in a process of its own, as an app receiving from one sender runs it (its code monomorphic). */
async function countSize(size: number, quick: boolean): Promise<SchemeRow[]> {
  const rows: SchemeRow[] = [];
  for (const only of buildSchemeCases(size).map(({ scheme }) => scheme)) {
    const { schemes, counted } = await countSchemes(size, settingsFor(size, quick), { only });
    const least = (scheme: string, side: SchemeSide) =>
      Math.min(...(counted.windows.get(`${scheme}|${side}`) ?? [Number.NaN]));
    for (const { scheme, peer } of schemes) {
      const tidings = least(scheme, "tidings");
      const floor = least(scheme, "floor");
      const row: SchemeRow = { scheme, size, tidings, floor, vsFloor: tidings / floor };
      if (peer) {
        const instructions = least(scheme, "peer");
        row.peer = { name: peer, instructions };
        row.peerVsTidings = instructions / tidings;
      }
      rows.push(row);
    }
  }
  return rows;
}

export interface SchemeResults {
  rows: SchemeRow[];
}

export async function runSchemesSuite(
  options: { quick: boolean },
  log: (line: string) => void,
): Promise<SchemeResults> {
  const rows: SchemeRow[] = [];
  for (const size of options.quick ? [256] : SCHEME_SIZES) {
    for (const row of await countSize(size, options.quick)) {
      rows.push(row);
      const peer = row.peerVsTidings ? `, ${row.peer?.name}/tidings ${row.peerVsTidings.toFixed(2)}` : "";
      log(`schemes ${row.scheme} ${size} B: tidings/floor ${row.vsFloor.toFixed(3)}${peer}`);
    }
  }
  return { rows };
}

/** The report's section: each scheme and size, with its ratios and whether each target is met. */
export function renderSchemes({ rows }: SchemeResults, chart: readonly string[]): string {
  const cells = rows.map((row) => [
    row.scheme,
    formatBytes(row.size),
    count(row.tidings),
    count(row.floor),
    `${row.vsFloor.toFixed(3)}${meetsFloorTarget(row) ? "" : " ✗"}`,
    `${row.tidings >= row.floor ? "+" : "−"}${count(Math.abs(row.tidings - row.floor))}`,
    row.peer ? `${row.peer.name} ${count(row.peer.instructions)}` : "none",
    row.peerVsTidings === undefined ? "" : `${row.peerVsTidings.toFixed(2)}×${row.peerVsTidings > 1 ? "" : " ✗"}`,
  ]);
  return [
    "## Schemes: each sender's verify against its floor and its own library (instructions per verification, callgrind)",
    "",
    ...chart,
    table(
      `scheme | size | Tidings | floor | Tidings ÷ floor (≤ 1.10 from 4 KiB) | Tidings − floor (≤ ${count(SMALL_BODY_ALLOWANCE)} at 256 B) | sender's library | library ÷ Tidings (> 1)`,
      cells,
    ),
    "",
  ].join("\n");
}
