/** The report's schemes section: the method, each scheme and size with its figures, and the verdict per target. */
import { formatBytes } from "../lib/deliveries";
import { count, table } from "../lib/format";
import {
  meetsFloorTarget,
  meetsPeerTarget,
  type SchemeResults,
  type SchemeRow,
  SMALL_BODY_ALLOWANCE,
  SMALL_BODY_PEER_ALLOWANCE,
} from "./suite";

const METHOD = [
  "Every scheme of `catalogue()` (`@tidings/core/schemes`), with no code per scheme but the bodies of senders that sign inside the body (`bench/schemes/signed-bodies.ts`): the delivery is made with the scheme's own `sign` (and the `request` it signs, for a URL-signed scheme: `https://hooks.example.com/webhooks/<scheme>?tenant=bench`), with the first secret the scheme takes and verifies (text, `whsec_`, hex, Basic credentials, the prefixes its `about.secret` names, then ed25519 and P-256 key pairs written each way senders write them), and a JSON body (a form for Twilio and Plivo; typed `userEntered` for Liveblocks and `order.paid` for Polar, whose SDKs refuse event types they do not know) padded to the size. A body-signed sender's least body can be longer than 256 B: the size column then says so.",
  "Tidings is the scheme's standalone `verify`. The floor is derived from what the scheme's `read` returns: the signed bytes (`content.prefix` + `content.payload`, + `content.suffix` where a sender signs something after the body), handed over ready-made with a key made once; each verification computes the primitive over them, decodes the signature from its text (`content.encoding`) and compares in constant time. Where the content has matchers of its own, the floor is found by probing once: an HMAC-SHA256, -SHA1 or -SHA512 of the signed bytes that is one of the signatures (plus the SHA-256 of the body, compared, where the content carries a body whose hash a JWT claim or the signed URL names); an ed25519 or ECDSA P-256 verify with the delivery's public key; a token equal to the secret, compared in constant time. Where no probe finds it, the floor is the scheme's own matcher, and the floor column says so. Where the sender's format forces work on any verifier before the primitive, the floor does that work too, the cheapest correct way with Node's own APIs, on every verification (`bench/schemes/forced.ts`): where the signature or the signed time is inside a JSON body (Mailgun, Adyen, Linear's `webhookTimestamp`), the body is parsed with `JSON.parse`, as no other way finds those fields correctly; where a form's fields are signed (Twilio, Plivo), the form is parsed with `URLSearchParams` and its fields sorted and joined as the sender signs them, since those are the signed bytes; where the signature is a JWT (QStash, Vonage), its header and claims are decoded and parsed, since they name the algorithm and the body's hash. Header parsing, format checks, and the tolerance check are Tidings' cost above the floor.",
  "The sender's library is its SDK's verifier on the same delivery (the bytes received, decoded to text where the SDK takes only a string; a Request where it takes one), for the senders whose SDK verifies; an async one is awaited once per verification. Each scheme runs in a callgrind process of its own, the three sides taking turns window by window; the figure is the quietest window's instructions per verification.",
  `Targets, judged per row: at 256 B Tidings at most ${count(SMALL_BODY_ALLOWANCE)} instructions above the floor, from 4 KiB up within 1.10× of it; fewer instructions than the sender's library from 4 KiB up, and at 256 B at most ${Math.round((SMALL_BODY_PEER_ALLOWANCE - 1) * 100)} % more (the allowance for an SDK that checks no format, applied to every SDK). \`--quick\` (CI) runs 256 B only, on the first scheme of the catalogue for each kind of floor, once, and judges nothing.`,
];

const verdict = (met: boolean | undefined) => (met === undefined ? "" : met ? "met" : "✗ not met");

/** A row's cells; a quick run's rows (`judged` false) get no verdict, their numbers meaning nothing. */
function cells(row: SchemeRow, judged: boolean): string[] {
  return [
    row.scheme,
    row.bytes === undefined ? formatBytes(row.size) : `${formatBytes(row.size)} (body ${formatBytes(row.bytes)})`,
    row.floorKind ?? "",
    count(row.tidings),
    count(row.floor),
    row.vsFloor.toFixed(3),
    `${row.tidings >= row.floor ? "+" : "−"}${count(Math.abs(row.tidings - row.floor))}`,
    judged ? verdict(meetsFloorTarget(row)) : "",
    row.peer ? `${row.peer.name} ${count(row.peer.instructions)}` : "none",
    row.peerVsTidings === undefined ? "" : `${row.peerVsTidings.toFixed(2)}×`,
    judged ? verdict(meetsPeerTarget(row)) : "",
  ];
}

/** The floors that do the format's work, each beside the floor without it (the primitive alone, as defined before). */
function forcedFloors({ rows }: SchemeResults): string[] {
  const forced = rows.filter((row) => row.bareFloor !== undefined);
  if (forced.length === 0) return [];
  const each = forced.map(
    (row) =>
      `${row.scheme} at ${formatBytes(row.size)} ${count(row.floor)} (primitive alone ${count(row.bareFloor as number)})`,
  );
  return [
    `Floors that include the work the sender's format forces, beside the primitive alone: ${each.join("; ")}.`,
    "",
  ];
}

function summary({ rows }: SchemeResults): string {
  const floorMissed = rows.filter((row) => !meetsFloorTarget(row));
  const withPeer = rows.filter((row) => meetsPeerTarget(row) !== undefined);
  const peerMissed = withPeer.filter((row) => meetsPeerTarget(row) === false);
  const names = (missed: SchemeRow[]) =>
    missed.length === 0
      ? ""
      : `: not met by ${missed.map((row) => `${row.scheme} at ${formatBytes(row.size)}`).join(", ")}`;
  return [
    `Floor target met by ${rows.length - floorMissed.length} of ${rows.length} rows${names(floorMissed)}.`,
    `SDK target met by ${withPeer.length - peerMissed.length} of ${withPeer.length} rows with a sender's library${names(peerMissed)}.`,
  ].join(" ");
}

export function renderSchemes(results: SchemeResults, chart: readonly string[]): string {
  const unmeasured = results.unmeasured ?? [];
  return [
    "## Schemes: each sender's verify against its floor and its own library (instructions per verification, callgrind)",
    "",
    ...METHOD.flatMap((paragraph) => [paragraph, ""]),
    ...(results.sample ? [`Quick run (judges nothing): ${results.sample.join(", ")}.`, ""] : [summary(results), ""]),
    ...forcedFloors(results),
    ...(results.notes ?? []).flatMap((note) => [note, ""]),
    ...(results.recounted?.length
      ? [
          `Counted in a later run of their own (\`--schemes=\`), with the same settings: ${results.recounted.join(", ")}; every other row is from the full run.`,
          "",
        ]
      : []),
    ...chart,
    table(
      `scheme | size | floor computes | Tidings | floor | Tidings ÷ floor | Tidings − floor | floor target (≤ ${count(SMALL_BODY_ALLOWANCE)} above at 256 B, ≤ 1.10× from 4 KiB) | sender's library | library ÷ Tidings | SDK target (library ÷ Tidings > 1 from 4 KiB, ≥ 1 ÷ 1.05 at 256 B)`,
      results.rows.map((row) => cells(row, results.sample === undefined)),
    ),
    "",
    ...(unmeasured.length === 0
      ? []
      : ["Not measured:", "", ...unmeasured.map(({ scheme, reason }) => `- ${scheme}: ${reason}`), ""]),
  ].join("\n");
}
