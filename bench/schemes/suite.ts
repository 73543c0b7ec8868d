/**
 * Every scheme of the catalogue at 256 B, 4 KiB and 1 MiB: instructions per verification of Tidings, of the scheme's
 * floor and of the sender's own library, counted by callgrind in one process per scheme and size (the three take
 * turns, window by window), so the ratios hold on a loaded machine where wall time moves by more than the 10 % the
 * target allows. The deliveries, floors and peers come from the catalogue (deliveries.ts, floors.ts, peers.ts).
 */
import { CallgrindChild } from "../instructions/callgrind-child";
import { type Counted, countInTurns } from "../instructions/turns";
import type { InstructionSettings } from "../lib/options";
import { schemesNamed } from "./cases";
import type { PreparedCase, SchemeSide } from "./child";
import { deliveriesOf } from "./deliveries";
import { floorOf } from "./floors";
import { schemeOf } from "./merge";

export const SCHEME_SIZES = [256, 4096, 1024 * 1024] as const;

export interface SchemeRow {
  scheme: string;
  size: number;
  /** What the floor computes (floors.ts), the kind of secret and the body's shape. */
  floorKind?: string;
  kind?: string;
  shape?: string;
  /** The body's length, where it is not `size`. */
  bytes?: number;
  /** Instructions per verification in the quietest window: Tidings, the floor, the sender's library. */
  tidings: number;
  floor: number;
  peer?: { name: string; instructions: number };
  /** Where the floor does the work the format forces: the floor without it (the primitive alone). */
  bareFloor?: number;
  /** Tidings ÷ floor. */
  vsFloor: number;
  /** The sender's library ÷ Tidings: above 1, Tidings does less work. */
  peerVsTidings?: number;
}

export interface SchemeResults {
  rows: SchemeRow[];
  /** Schemes (and sizes) that could not be measured, and why. */
  unmeasured?: { scheme: string; reason: string }[];
  /** In quick mode, the schemes sampled. */
  sample?: string[];
  /** What the reader must know of how some rows were counted (a scheme counted again in a run of its own). */
  notes?: string[];
  /** Schemes whose rows come from a later run of some schemes (`--schemes=`) than the others'. */
  recounted?: string[];
}

/** At 256 B a scheme's own header work is a fixed cost the HMAC is too short to hide: it may cost this much more. */
export const SMALL_BODY_ALLOWANCE = 7_000;
export const SMALL_BODY_BYTES = 256;
/** At 256 B, Tidings checks the header's format where an SDK may not: it may cost this much more than the SDK. */
export const SMALL_BODY_PEER_ALLOWANCE = 1.05;

/** The floor target: within SMALL_BODY_ALLOWANCE instructions of the floor at 256 B, within 1.10× from 4 KiB up. */
export function meetsFloorTarget({ size, tidings, floor, vsFloor }: SchemeRow): boolean {
  return size <= SMALL_BODY_BYTES ? tidings - floor <= SMALL_BODY_ALLOWANCE : vsFloor <= 1.1;
}

/** The SDK target: fewer instructions than the sender's library from 4 KiB up, within 5 % of it at 256 B. */
export function meetsPeerTarget({ size, peerVsTidings }: SchemeRow): boolean | undefined {
  if (peerVsTidings === undefined) return undefined;
  return size <= SMALL_BODY_BYTES ? peerVsTidings >= 1 / SMALL_BODY_PEER_ALLOWANCE : peerVsTidings > 1;
}

/** Fewer verifications per window as the body grows: a 1 MiB HMAC costs about 4,000 times a 256 B one. */
export function settingsFor(size: number, quick: boolean): InstructionSettings {
  if (quick) return { warmupRequests: 5, windows: 1, windowRequests: 2 };
  if (size > 100_000) return { warmupRequests: 30, windows: 3, windowRequests: 4 };
  return { warmupRequests: 3_000, windows: 5, windowRequests: 300 };
}

interface SchemeCount {
  schemes: PreparedCase[];
  counted: Counted<string>;
}

/**
 * Counts the sides (`<case>|floor`, `|tidings`, `|peer`) of one scheme at each size, in a process of its own, as an
 * app receiving from one sender runs it (its code monomorphic), the sizes one after the other. `only`: a scheme's
 * name, or one case of it.
 */
export async function countSchemes(
  sizes: readonly number[],
  settings: (size: number) => InstructionSettings,
  { only, functions = false }: { only: string; functions?: boolean },
): Promise<Map<number, SchemeCount>> {
  const child = new CallgrindChild("schemes/child.ts", {}, { functions });
  const counts = new Map<number, SchemeCount>();
  try {
    for (const size of sizes) {
      const prepared = await child.call<PreparedCase[]>("prepare", { size, scheme: schemeOf(only) });
      const schemes = only === schemeOf(only) ? prepared : prepared.filter(({ scheme }) => scheme === only);
      if (schemes.length === 0) throw new Error(`no case ${only}: ${prepared.map(({ scheme }) => scheme).join(", ")}`);
      const sides = schemes.flatMap(({ scheme, peer, bare }) =>
        (["floor", "tidings", ...(bare ? ["bare"] : []), ...(peer ? ["peer"] : [])] as SchemeSide[]).map(
          (side) => `${scheme}|${side}`,
        ),
      );
      const counted = await countInTurns(
        new Map(sides.map((side) => [side, child])),
        settings(size),
        functions,
        (side, amount) => {
          const [scheme, which] = side.split("|");
          return child.call("run", { scheme, side: which, amount });
        },
      );
      counts.set(size, { schemes, counted });
    }
    return counts;
  } finally {
    await child.stop();
  }
}

function rowsOf(size: number, { schemes, counted }: SchemeCount): SchemeRow[] {
  const least = (scheme: string, side: SchemeSide) =>
    Math.min(...(counted.windows.get(`${scheme}|${side}`) ?? [Number.NaN]));
  return schemes.map(({ scheme, peer, floor: floorKind, kind, shape, bytes, bare }) => {
    const tidings = least(scheme, "tidings");
    const floor = least(scheme, "floor");
    const row: SchemeRow = { scheme, size, floorKind, kind, shape, tidings, floor, vsFloor: tidings / floor };
    if (bare) row.bareFloor = least(scheme, "bare");
    if (bytes !== size) row.bytes = bytes;
    if (peer) {
      const instructions = least(scheme, "peer");
      row.peer = { name: peer, instructions };
      row.peerVsTidings = instructions / tidings;
    }
    return row;
  });
}

/** Quick mode's sample: the first scheme of the catalogue for each kind of floor, so every way of verifying runs. */
export function quickSample(): string[] {
  const kinds = new Map<string, string>();
  const now = Math.floor(Date.now() / 1000);
  for (const scheme of schemesNamed()) {
    for (const delivery of deliveriesOf(scheme, SMALL_BODY_BYTES, now)) {
      const kind = floorOf(delivery).kind;
      if (!kinds.has(kind)) kinds.set(kind, scheme.name);
    }
  }
  return [...new Set(kinds.values())];
}

/** Schemes counted at once: callgrind counts instructions, which other processes do not change. */
const PROCESSES = 3;

export async function runSchemesSuite(
  options: { quick: boolean; only?: readonly string[] | undefined },
  log: (line: string) => void,
): Promise<SchemeResults> {
  const sample = options.quick ? quickSample() : undefined;
  const names = sample ?? schemesNamed(options.only).map(({ name }) => name);
  const sizes = options.quick ? [SMALL_BODY_BYTES] : SCHEME_SIZES;
  const results = new Map<string, Map<number, SchemeCount> | string>();
  let next = 0;
  const worker = async () => {
    for (let scheme = names[next++]; scheme !== undefined; scheme = names[next++]) {
      try {
        const counts = await countSchemes(sizes, (size) => settingsFor(size, options.quick), { only: scheme });
        results.set(scheme, counts);
        for (const [size, count] of counts) {
          for (const row of rowsOf(size, count)) {
            const peer = row.peerVsTidings ? `, ${row.peer?.name}/tidings ${row.peerVsTidings.toFixed(2)}` : "";
            log(`schemes ${row.scheme} ${size} B: tidings/floor ${row.vsFloor.toFixed(3)}${peer}`);
          }
        }
      } catch (error) {
        const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
        results.set(scheme, reason);
        log(`schemes ${scheme}: not measured: ${reason}`);
      }
    }
  };
  await Promise.all(Array.from({ length: PROCESSES }, worker));
  const rows: SchemeRow[] = [];
  const unmeasured: NonNullable<SchemeResults["unmeasured"]> = [];
  for (const size of sizes) {
    for (const scheme of names) {
      const result = results.get(scheme);
      const count = typeof result === "string" ? undefined : result?.get(size);
      if (count) rows.push(...rowsOf(size, count));
      else if (size === sizes[0]) unmeasured.push({ scheme, reason: typeof result === "string" ? result : "not run" });
    }
  }
  return { rows, unmeasured, ...(sample ? { sample } : {}) };
}
