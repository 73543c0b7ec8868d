/**
 * The scheme suite's counting process (under callgrind), one per scheme and size: `prepare` builds the scheme's
 * deliveries at one size (its SDK imported here only), `run` verifies one of them `amount` times with Tidings, the
 * floor or the sender's library (an async library awaited each time).
 */
import { serveCommands } from "../lib/children";
import { casesOf, type SchemeCase, schemesNamed } from "./cases";
import { freezeClock } from "./clock";

/** `bare`: the floor without the work the format forces (floors.ts), where it has such work. */
export type SchemeSide = "tidings" | "floor" | "bare" | "peer";

/** What the runner learns of each case. */
export interface PreparedCase {
  scheme: string;
  floor: string;
  kind: string;
  shape: string;
  /** The body's length: a body-signed sender's least body is longer than the smallest size. */
  bytes: number;
  peer?: string | undefined;
  /** The floor does work the format forces: `bare` is counted too. */
  bare?: boolean;
}

const runners = new Map<string, { run: () => unknown; async: boolean }>();

function runnerOf(testCase: SchemeCase, side: SchemeSide): () => unknown {
  if (side === "floor") return testCase.floor.run;
  if (side === "bare") {
    const bare = testCase.floor.bare;
    if (!bare) throw new Error(`no bare floor for ${testCase.scheme}`);
    return bare;
  }
  if (side === "tidings") return testCase.tidings;
  const peer = testCase.peer?.run;
  if (!peer) throw new Error(`no peer for ${testCase.scheme}`);
  return peer;
}

/** A side that refuses its delivery measures its refusal: a result of false, like a throw, ends the run. */
function refused(scheme: string, side: SchemeSide): never {
  throw new Error(`${scheme}: the ${side} refused its delivery while it was counted`);
}

serveCommands({
  async prepare({ size, scheme }: { size: number; scheme: string }): Promise<PreparedCase[]> {
    // Under callgrind a size's turns take minutes, past the 5 minutes every timed scheme (and its sender's library)
    // accepts: the clock stops at signing time, for Tidings and the libraries alike.
    const signedAt = Date.now();
    freezeClock(signedAt);
    const [found] = schemesNamed([scheme]);
    const cases = found ? await casesOf(found, size) : [];
    if (cases.length === 0) throw new Error(`${scheme}: no secret and body found that its sign and verify agree on`);
    for (const testCase of cases) {
      for (const side of ["tidings", "floor", "bare", "peer"] as const) {
        if (side === "peer" && !testCase.peer) continue;
        if (side === "bare" && !testCase.floor.bare) continue;
        const run = runnerOf(testCase, side);
        const result = run();
        if (result instanceof Promise) await result;
        runners.set(`${testCase.scheme}|${side}`, { run, async: result instanceof Promise });
      }
    }
    return cases.map(({ scheme: name, floor, delivery, peer }) => ({
      scheme: name,
      floor: floor.kind,
      kind: delivery.kind,
      shape: delivery.shape,
      bytes: delivery.payload.length,
      peer: peer?.name,
      ...(floor.bare ? { bare: true } : {}),
    }));
  },
  async run({ scheme, side, amount }: { scheme: string; side: SchemeSide; amount: number }) {
    const runner = runners.get(`${scheme}|${side}`);
    if (!runner) throw new Error(`no ${side} for ${scheme}`);
    const { run } = runner;
    if (runner.async) {
      for (let index = 0; index < amount; index++) if ((await run()) === false) refused(scheme, side);
    } else {
      for (let index = 0; index < amount; index++) if (run() === false) refused(scheme, side);
    }
  },
});
