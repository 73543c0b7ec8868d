/**
 * The scheme suite's counting process (under callgrind): `prepare` builds every scheme's delivery at one size,
 * `run` verifies one of them `amount` times with Tidings, the floor or the sender's library.
 */
import { serveCommands } from "../lib/children";
import { buildSchemeCases, type SchemeCase } from "./cases";

export type SchemeSide = "tidings" | "floor" | "peer";

let cases = new Map<string, SchemeCase>();

function runnerOf(scheme: string, side: SchemeSide): () => unknown {
  const testCase = cases.get(scheme);
  const run = side === "peer" ? testCase?.peer?.run : testCase?.[side];
  if (!run) throw new Error(`no ${side} for ${scheme}`);
  return run;
}

serveCommands({
  prepare({ size }: { size: number }) {
    // Under callgrind a size's turns take minutes, past the 5 minutes every timed scheme (and its sender's library)
    // accepts: the clock stops at signing time, for Tidings and the libraries alike.
    const signedAt = Date.now();
    Date.now = () => signedAt;
    cases = new Map(buildSchemeCases(size).map((testCase) => [testCase.scheme, testCase]));
    return [...cases.values()].map((testCase) => ({ scheme: testCase.scheme, peer: testCase.peer?.name }));
  },
  run({ scheme, side, amount }: { scheme: string; side: SchemeSide; amount: number }) {
    const run = runnerOf(scheme, side);
    for (let index = 0; index < amount; index++) run();
  },
});
