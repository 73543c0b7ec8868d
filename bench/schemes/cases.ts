import { catalogue, type Scheme } from "@tidings/core/schemes";
import { deliveriesOf, type SchemeDelivery } from "./deliveries";
import { type Floor, floorOf } from "./floors";
import { PEERS, type Peer } from "./peers";

/** One scheme (and kind of secret) at one size: Tidings' verify, the scheme's floor, and the sender's own verifier. */
export interface SchemeCase {
  /** The scheme's name, or `<name> (<kind>)` for a second kind of secret it verifies. */
  scheme: string;
  delivery: SchemeDelivery;
  /** Tidings' verify of the delivery. */
  tidings: () => unknown;
  /** The least any verifier must do, from what the scheme's `read` returns (floors.ts). */
  floor: Floor;
  /** The sender's own library on the same delivery, where its SDK verifies. */
  peer?: Peer;
}

/** The schemes `only` names (default: the whole catalogue), in the catalogue's order. */
export function schemesNamed(only?: readonly string[]): Scheme[] {
  const schemes = catalogue().filter(({ name }) => only === undefined || only.includes(name));
  if (only && schemes.length < only.length) {
    const missing = only.filter((name) => !schemes.some((scheme) => scheme.name === name));
    throw new Error(`no scheme ${missing.join(", ")} in the catalogue`);
  }
  return [...schemes];
}

/** Tidings' side, the floor and (without `peers: false`) the peer of each delivery of `scheme`; asserts each accepts it. */
export async function casesOf(scheme: Scheme, size: number, { peers = true } = {}): Promise<SchemeCase[]> {
  const cases: SchemeCase[] = [];
  for (const delivery of deliveriesOf(scheme, size, Math.floor(Date.now() / 1000))) {
    const { payload, headers, secret, request } = delivery;
    const options = request && { request };
    const floor = floorOf(delivery);
    if (floor.run() !== true) throw new Error(`${delivery.label}: the floor (${floor.kind}) refused a valid delivery`);
    const testCase: SchemeCase = {
      scheme: delivery.label,
      delivery,
      tidings: () => scheme.verify(payload, headers, secret, options),
      floor,
    };
    const peerOf = PEERS[scheme.name];
    // The peer checks the scheme's first kind of secret: the one its sender hands out.
    if (peers && peerOf && delivery.label === scheme.name) {
      const peer = await peerOf(delivery);
      const accepted = await peer.run();
      if (accepted === false) throw new Error(`${delivery.label}: ${peer.name} refused the delivery`);
      testCase.peer = peer;
    }
    cases.push(testCase);
  }
  return cases;
}
