import { createReceiver, type DeliveryContext } from "@tidings/core";
import { describe, expect, it } from "vitest";
import { MAX_SIGNATURE_HEADER_PAIRS } from "../../packages/core/src/verification/constants";
import { delivery, ENCODERS, eventBody, SECRET } from "../conformance/deliveries";
import type { AnyReceiver, RunningApp, WireResponse } from "../conformance/target";
import { ALL_TARGETS } from "../conformance/targets";

const encode = (text: string) => new TextEncoder().encode(text);
const codeOf = (response: WireResponse) => (JSON.parse(response.body) as { error?: { code?: string } }).error?.code;

async function withApp(
  start: (receiver: AnyReceiver) => Promise<RunningApp>,
  run: (app: RunningApp, handled: DeliveryContext[]) => Promise<void>,
  maxBodyBytes = 64 * 1024,
) {
  const handled: DeliveryContext[] = [];
  const receiver = createReceiver({ secret: SECRET, maxBodyBytes, logger: { error() {} } });
  receiver.onAny((_event, context) => {
    handled.push(context);
  });
  const app = await start(receiver);
  try {
    await run(app, handled);
  } finally {
    await app.close();
  }
}

for (const target of ALL_TARGETS) {
  describe(`${target.name}: hostile bodies`, () => {
    const start = (receiver: AnyReceiver) => target.start(receiver);

    it("caps a bomb in every coding, and two codings stacked, at the decoded limit (413)", () =>
      withApp(start, async (app, handled) => {
        const bomb = new Uint8Array(16 * 1024 * 1024);
        for (const [coding, sendBody] of [
          ["gzip", ENCODERS.gzip(bomb)],
          ["deflate", ENCODERS.deflate(bomb)],
          ["br", ENCODERS.br(bomb)],
          ["gzip, gzip", ENCODERS.gzip(ENCODERS.gzip(bomb))],
        ] as const) {
          const response = await app.send(delivery(bomb, { sendBody, headers: { "content-encoding": coding } }));
          expect([response.status, codeOf(response)], coding).toEqual([413, "payload_too_large"]);
        }
        expect(handled).toEqual([]);
      }));

    it("refuses thousands of stacked codings in one header with 415, undoing none", () =>
      withApp(start, async (app) => {
        let layered = eventBody();
        for (let layer = 0; layer < 5; layer++) layered = ENCODERS.gzip(layered);
        const header = Array.from({ length: 1500 }, () => "gzip").join(",");
        const response = await app.send(
          delivery(eventBody(), { sendBody: layered, headers: { "content-encoding": header } }),
        );
        expect([response.status, codeOf(response)]).toEqual([415, "unsupported_encoding"]);
      }));

    it("answers 400 to data that is not what its Content-Encoding says", () =>
      withApp(start, async (app) => {
        for (const coding of ["gzip", "deflate", "br"]) {
          const response = await app.send(
            delivery(eventBody(), {
              sendBody: encode("not compressed at all"),
              headers: { "content-encoding": coding },
            }),
          );
          expect([response.status, codeOf(response)], coding).toEqual([400, "invalid_payload"]);
        }
      }));

    it("parses signed prototype keys without polluting any prototype", () =>
      withApp(start, async (app, handled) => {
        const body = encode(
          '{"id":"evt_proto","type":"message.sent","__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}',
        );
        expect((await app.send(delivery(body))).status).toBe(200);
        expect(handled.map((context) => context.deliveryKey)).toEqual(["event:evt_proto"]);
        expect(({} as { polluted?: number }).polluted).toBeUndefined();
        expect((Object.prototype as { polluted?: number }).polluted).toBeUndefined();
      }));

    it("answers a signed but deeply nested, empty or non-object body with a 4xx, never a crash", () =>
      withApp(
        start,
        async (app, handled) => {
          const depth = 200_000;
          for (const text of ["[".repeat(depth) + "]".repeat(depth), "", "null", "[]", '"text"', "{".repeat(depth)]) {
            const response = await app.send(delivery(encode(text)));
            expect([response.status, codeOf(response)], text.slice(0, 10)).toEqual([400, "invalid_payload"]);
          }
          expect(handled).toEqual([]);
        },
        1024 * 1024,
      ));

    it("checks every v1 of a header up to the pair limit, and refuses a longer header as malformed", () =>
      withApp(start, async (app, handled) => {
        const body = eventBody({ id: "evt_many_v1" });
        const valid = delivery(body).headers["service-signature"] as string;
        const [t, v1] = valid.split(",");
        const decoys = (count: number) =>
          Array.from({ length: count }, (_, n) => `v1=${n.toString(16).padStart(64, "0")}`).join(",");
        const refused = await app.send(delivery(body, { signature: `${t},${decoys(MAX_SIGNATURE_HEADER_PAIRS - 2)}` }));
        expect([refused.status, codeOf(refused)]).toEqual([400, "signature_mismatch"]);
        const accepted = await app.send(
          delivery(body, { signature: `${t},${decoys(MAX_SIGNATURE_HEADER_PAIRS - 2)},${v1}` }),
        );
        expect(accepted.status).toBe(200);
        const tooLong = await app.send(
          delivery(body, { signature: `${t},${decoys(MAX_SIGNATURE_HEADER_PAIRS)},${v1}` }),
        );
        expect([tooLong.status, codeOf(tooLong)]).toEqual([400, "malformed_header"]);
        expect(handled).toHaveLength(1);
      }));
  });
}
