/** The secrets suite's counting process (under callgrind): `prepare` builds the sides, `run` runs one of them. */
import { serveCommands } from "../lib/children";
import { buildSecretSides, type SecretSide } from "./cases";

let sides = new Map<string, SecretSide>();

serveCommands({
  prepare({ size, forgedSize }: { size: number; forgedSize: number }) {
    // Under callgrind the turns take minutes, past the 5-minute window: the clock stops at signing time.
    const signedAt = Date.now();
    Date.now = () => signedAt;
    sides = new Map(buildSecretSides(size, forgedSize).map((side) => [side.name, side]));
    return [...sides.keys()];
  },
  run({ side, amount }: { side: string; amount: number }) {
    const found = sides.get(side);
    if (!found) throw new Error(`no side ${side}`);
    found.run(amount);
  },
});
