/**
 * What a request costs as the secrets grow, in instructions per verification (callgrind, the two sides of a pair
 * taking turns in one process, so a ratio holds on a loaded machine): an HMAC and an ed25519 verification with 1,000
 * endpoints' secrets in rotation against one endpoint's, and a forged Standard Webhooks delivery (32 `v1a` entries to
 * an endpoint holding two `whpk_` keys) against one genuine ed25519 verification of the same size.
 */
import { CallgrindChild } from "../instructions/callgrind-child";
import { countInTurns } from "../instructions/turns";
import { formatBytes } from "../lib/deliveries";
import { count, table } from "../lib/format";
import type { InstructionSettings } from "../lib/options";
import { ENDPOINTS, FORGED_ENTRIES, FORGED_KEYS } from "./cases";

/** Each pair: what is compared, its two sides, the target on their ratio, and how long to count. */
interface Pair {
  id: "hmac" | "ed25519" | "forged";
  what: (forgedSize: number) => string;
  base: string;
  measured: string;
  target: number;
  settings: (quick: boolean) => InstructionSettings;
}

const SIZE = 256;
const FORGED_SIZE = 64 * 1024;

const PAIRS: readonly Pair[] = [
  {
    id: "hmac",
    what: () => `HMAC (Service-Signature), ${formatBytes(SIZE)}: ${ENDPOINTS.toLocaleString("en-US")} endpoints ÷ 1`,
    base: "one",
    measured: "many",
    target: 1.2,
    // The warm-up goes through every endpoint twice: what is counted is the steady state, not the first key made.
    settings: (quick) =>
      quick
        ? { warmupRequests: 20, windows: 1, windowRequests: 10 }
        : { warmupRequests: 2 * ENDPOINTS, windows: 5, windowRequests: 500 },
  },
  {
    id: "ed25519",
    what: () =>
      `ed25519 (Standard Webhooks v1a), ${formatBytes(SIZE)}: ${ENDPOINTS.toLocaleString("en-US")} endpoints ÷ 1`,
    base: "one",
    measured: "many",
    target: 1.2,
    settings: (quick) =>
      quick
        ? { warmupRequests: 5, windows: 1, windowRequests: 2 }
        : { warmupRequests: 2 * ENDPOINTS, windows: 3, windowRequests: 200 },
  },
  {
    id: "forged",
    what: (size) =>
      `forged ed25519, ${formatBytes(size)}: ${FORGED_ENTRIES} v1a entries to ${FORGED_KEYS} keys ÷ one genuine verification`,
    base: "one",
    measured: "forged",
    target: 4,
    settings: (quick) =>
      quick
        ? { warmupRequests: 1, windows: 1, windowRequests: 1 }
        : { warmupRequests: 3, windows: 3, windowRequests: 2 },
  },
];

export interface SecretRow {
  id: Pair["id"];
  what: string;
  /** Instructions per verification in the quietest window of each side. */
  base: number;
  measured: number;
  ratio: number;
  target: number;
}

export interface SecretResults {
  rows: SecretRow[];
}

async function countPair(pair: Pair, quick: boolean): Promise<SecretRow> {
  const child = new CallgrindChild("secrets/child.ts", {});
  try {
    const forgedSize = quick ? SIZE : FORGED_SIZE;
    await child.call("prepare", { size: SIZE, forgedSize });
    const sides = [`${pair.id}|${pair.base}`, `${pair.id}|${pair.measured}`];
    const counted = await countInTurns(
      new Map(sides.map((side) => [side, child])),
      pair.settings(quick),
      false,
      (side, amount) => child.call("run", { side, amount }),
    );
    const least = (side: string) => Math.min(...(counted.windows.get(side) ?? [Number.NaN]));
    const base = least(sides[0] as string);
    const measured = least(sides[1] as string);
    return { id: pair.id, what: pair.what(forgedSize), base, measured, ratio: measured / base, target: pair.target };
  } finally {
    await child.stop();
  }
}

export async function runSecretsSuite(
  options: { quick: boolean },
  log: (line: string) => void,
): Promise<SecretResults> {
  const rows: SecretRow[] = [];
  for (const pair of PAIRS) {
    const row = await countPair(pair, options.quick);
    rows.push(row);
    log(`secrets ${row.id}: ${count(row.measured)} ÷ ${count(row.base)} = ${row.ratio.toFixed(3)}`);
  }
  return { rows };
}

/** The report's section: each pair, its ratio and whether its target is met. */
export function renderSecrets({ rows }: SecretResults): string {
  const cells = rows.map((row) => [
    row.what,
    count(row.measured),
    count(row.base),
    `${row.ratio.toFixed(3)}${row.ratio <= row.target ? "" : " ✗"}`,
    `≤ ${row.target}`,
  ]);
  return [
    "## Secrets: per-request work as endpoints and keys grow (instructions per verification, callgrind)",
    "",
    table("case | measured | baseline | ratio | target", cells),
    "",
  ].join("\n");
}
