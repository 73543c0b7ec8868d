import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createReceiver, type DeliveryContext, sign } from "../src/entries";
import { numberSource } from "../src/ground/number-source";

const SECRET = "whsec_ids";
const encoder = new TextEncoder();

function delivery(body: string) {
  const rawBody = encoder.encode(body);
  return { rawBody, headers: { "service-signature": sign(rawBody, SECRET) } };
}

function recording() {
  const seen: DeliveryContext[] = [];
  const receiver = createReceiver({ secret: SECRET }).onAny((_event, context) => {
    seen.push(context);
  });
  return { receiver, seen };
}

describe("numeric event ids", () => {
  it("past 2^53 (64-bit snowflake ids) stay two events, though JSON.parse rounds both to one number", async () => {
    const { receiver, seen } = recording();
    const first = await receiver.receive(delivery('{"id":9007199254740992,"type":"message.sent"}'));
    const second = await receiver.receive(delivery('{"id":9007199254740993,"type":"message.sent"}'));
    expect([first.code, second.code]).toEqual(["accepted", "accepted"]);
    expect(seen.map((context) => context.deliveryKey)).toEqual(["event:9007199254740992", "event:9007199254740993"]);
    const resent = await receiver.receive(delivery('{"type":"message.sent", "id": 9007199254740993}'));
    expect(resent.code).toBe("duplicate");
  });

  it("up to 2^53 keep the key they always had: the number's digits, as a string id with those digits", async () => {
    const { receiver, seen } = recording();
    await receiver.receive(delivery('{"id":42,"type":"message.sent"}'));
    expect((await receiver.receive(delivery('{"id":"42","type":"message.sent"}'))).code).toBe("duplicate");
    await receiver.receive(delivery('{"id":-9007199254740991,"type":"message.sent"}'));
    expect(seen.map((context) => context.deliveryKey)).toEqual(["event:42", "event:-9007199254740991"]);
  });

  it("are read from the member JSON.parse keeps: the last top-level id, escaped or not, never a nested one", () => {
    const body = (text: string) => encoder.encode(text);
    expect(numberSource(body('{"a":{"id":1},"id":12345678901234567890}'), "id")).toBe("12345678901234567890");
    expect(numberSource(body('{"id":1e400,"x":[{"id":2}],"\\u0069d":-1.25E+30}'), "id")).toBe("-1.25E+30");
    expect(numberSource(body('\uFEFF {"s":"}\\",\\"id\\":5","id"\n:\t9007199254740993 }'), "id")).toBe(
      "9007199254740993",
    );
  });

  it("are read exactly from a body of a mebibyte of escapes too", async () => {
    const { receiver, seen } = recording();
    const filler = '\\n\\"'.repeat(170_000);
    const body = `{"note":"${filler}","type":"message.sent","id":18446744073709551615}`;
    expect((await receiver.receive(delivery(body))).code).toBe("accepted");
    expect(seen[0]?.deliveryKey).toBe("event:18446744073709551615");
  });

  it("property: the id's exact text, whatever surrounds it, and one run per distinct id", async () => {
    const space = fc.constantFrom("", " ", "\n", "\t \r\n");
    const numberText = fc
      .tuple(
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 2n ** 80n }),
        fc.option(fc.stringMatching(/^[0-9]{1,20}$/), { nil: undefined }),
        fc.option(fc.tuple(fc.constantFrom("e", "E", "e+", "E-"), fc.integer({ min: 0, max: 400 })), {
          nil: undefined,
        }),
      )
      .map(([negative, digits, fraction, exponent]) => {
        const fractionText = fraction === undefined ? "" : `.${fraction}`;
        const exponentText = exponent === undefined ? "" : `${exponent[0]}${exponent[1]}`;
        return `${negative ? "-" : ""}${digits}${fractionText}${exponentText}`;
      });
    const key = fc.constantFrom('"id"', '"\\u0069d"', '"i\\u0064"');
    const member = fc.tuple(fc.string(), fc.jsonValue()).map(([name, value]) => ({ name, value }));
    const decoy = fc.jsonValue().map((value) => ({ name: "id", value: { id: value, list: [{ id: 7 }] } }));
    fc.assert(
      fc.property(
        fc.array(fc.oneof(member, decoy), { maxLength: 5 }),
        fc.array(member, { maxLength: 5 }),
        numberText,
        key,
        space,
        (before, after, text, idKey, ws) => {
          const members = [
            ...before.map(({ name, value }) => `${JSON.stringify(name)}${ws}:${ws}${JSON.stringify(value)}`),
            `${idKey}${ws}:${ws}${text}`,
            ...after
              .filter(({ name }) => name !== "id")
              .map(({ name, value }) => `${JSON.stringify(name)}${ws}:${ws}${JSON.stringify(value, null, ws)}`),
          ];
          const json = `${ws}{${ws}${members.join(`${ws},${ws}`)}${ws}}${ws}`;
          expect(JSON.parse(json).id).toBe(Number(text));
          expect(numberSource(encoder.encode(json), "id")).toBe(text);
        },
      ),
      { numRuns: 2000 },
    );
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n }), { minLength: 2 }), async (ids) => {
        const { receiver, seen } = recording();
        for (const id of ids) await receiver.receive(delivery(`{"type":"message.sent","id":${id}}`));
        for (const id of ids) await receiver.receive(delivery(`{"id":${id},"type":"message.sent"}`));
        expect(seen.map((context) => context.deliveryKey)).toEqual(ids.map((id) => `event:${id}`));
      }),
      { numRuns: 200 },
    );
  }, 60_000);
});
