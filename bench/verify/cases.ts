import { constructEvent, verify, verifyAsync } from "@tidings/core";
import { parseSignatureHeader } from "@tidings/core/schemes";
import { headerParts, SECRET, signedDelivery } from "../lib/deliveries";
import { floorVerify, floorVerifyAndParse } from "./floor";

export type CaseGroup = "floor" | "tidings" | "peer";

/** One row of the verification table: `run` performs `batch` verifications, so timer overhead stays negligible. */
export interface VerifyCase {
  id: string;
  label: string;
  group: CaseGroup;
  batch: number;
  run(): unknown;
}

/** Operations per sample: about 100 µs of floor work, at least one. */
export function batchFor(size: number): number {
  return Math.max(1, Math.round(100_000 / (2_000 + size * 0.6)));
}

function repeat(times: number, operation: () => unknown): () => void {
  return () => {
    for (let i = 0; i < times; i++) operation();
  };
}

function repeatAsync(times: number, operation: () => Promise<unknown>): () => Promise<void> {
  return async () => {
    for (let i = 0; i < times; i++) await operation();
  };
}

/**
 * Headers as a server receives them: each a distinct flat string (Node's HTTP parser makes them from bytes), few
 * enough to stay in cache as a just-received header is. Parsing one string over and over would measure a string
 * V8 has already flattened and cached; thousands would measure cache misses.
 */
function distinctHeaders(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const { header } = signedDelivery(256, `evt_header_${i}`, 1_700_000_000 + i);
    return Buffer.from(header, "latin1").toString("latin1");
  });
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`${what}: the delivery did not verify`);
}

/** Every row for one body size, with a fresh timestamp so time-window checks pass. */
export async function buildCases(
  size: number,
  stripeVerify: (body: Buffer, header: string) => boolean,
  withHeaderRow: boolean,
): Promise<VerifyCase[]> {
  const { body, header } = signedDelivery(size, "evt_verify_bench");
  const { timestampText, v1 } = headerParts(header);
  const batch = batchFor(size);
  const cases: VerifyCase[] = [
    {
      id: "floor",
      label: "floor: node:crypto createHmac + timingSafeEqual",
      group: "floor",
      batch,
      run: repeat(batch, () => check(floorVerify(body, timestampText, v1, SECRET), "floor")),
    },
    {
      id: "floor-parse",
      label: "floor + JSON.parse",
      group: "floor",
      batch,
      run: repeat(batch, () => floorVerifyAndParse(body, timestampText, v1, SECRET)),
    },
    {
      id: "verify",
      label: "@tidings/core verify",
      group: "tidings",
      batch,
      run: repeat(batch, () => verify(body, header, SECRET)),
    },
    {
      id: "verifyAsync",
      label: "@tidings/core verifyAsync",
      group: "tidings",
      batch,
      run: repeatAsync(batch, () => verifyAsync(body, header, SECRET)),
    },
    {
      id: "constructEvent",
      label: "@tidings/core constructEvent (verify + JSON.parse)",
      group: "tidings",
      batch,
      run: repeat(batch, () => constructEvent(body, header, SECRET)),
    },
    {
      id: "stripe",
      label: "stripe webhooks.signature.verifyHeader",
      group: "peer",
      batch,
      run: repeat(batch, () => check(stripeVerify(body, header), "stripe")),
    },
  ];
  if (withHeaderRow) {
    const headers = distinctHeaders(64);
    let next = 0;
    cases.push({
      id: "parseHeader",
      label: `@tidings/core parseSignatureHeader alone (${headers.length} distinct headers in turn)`,
      group: "tidings",
      batch: 256,
      run: repeat(256, () => parseSignatureHeader(headers[next++ & (headers.length - 1)] as string)),
    });
  }
  for (const testCase of cases) await testCase.run(); // fails loudly before any timing if a row cannot verify
  return cases;
}
