import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readableJobText, readQueuedDelivery, toQueuedDelivery } from "../src/entries/dispatch";
import type { DeliveryContext } from "../src/receiver/handlers";

function contextOf(strings: { type?: string; deliveryKey?: string; endpoint?: string } = {}): DeliveryContext {
  return {
    type: "message.delivered",
    deliveryKey: "event:evt_1",
    timestamp: 1_700_000_000,
    secretIndex: 0,
    verifiedBody: new Uint8Array([123, 125]),
    headers: {},
    ...strings,
  } as DeliveryContext;
}

/** The job as an engine hands it back: through JSON, as every engine stores it. */
const stored = (event: object, context: DeliveryContext) =>
  JSON.parse(JSON.stringify(toQueuedDelivery(event, context, false))) as Record<string, unknown>;

/** Every string in a JSON value, keys included. */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => [key, ...stringsOf(item)]);
}

/** What PostgreSQL's jsonb stores as it is: no NUL, and UTF-8 round-trips it (no lone surrogate). */
const jsonbTakes = (text: string) => !text.includes("\0") && Buffer.from(text, "utf8").toString("utf8") === text;

describe("the job data of a delivery", () => {
  it("holds an ordinary event as it is, and its type, key and endpoint unescaped", () => {
    const event = { id: "evt_1", type: "message.delivered", data: { note: 'say "hi"\n', emoji: "\uD83D\uDE00" } };
    const data = stored(event, contextOf({ endpoint: 'acct "1"' }));
    expect(data).toMatchObject({ event, type: "message.delivered", deliveryKey: "event:evt_1", endpoint: 'acct "1"' });
  });

  it.each([
    ["NUL in a value", { data: { note: "a\u0000b" } }, {}],
    ["a lone surrogate in a key", { data: { "\uDC00": 1 } }, {}],
    ["a lone surrogate in the type", {}, { type: "message.\uDFFF" }],
    ["NUL in the delivery key", {}, { deliveryKey: "event:evt_\u0000" }],
    ["a lone surrogate in the endpoint", {}, { endpoint: "acct_\uD800" }],
  ])("holds the event as JSON text, and the strings as job text, for %s", (_name, event, strings) => {
    const data = stored(event, contextOf(strings));
    expect(typeof data.event).toBe("string");
    expect(stringsOf(data).every(jsonbTakes)).toBe(true);
    const { event: read, context } = readQueuedDelivery(data, { id: "job_1", attempt: 1 });
    expect(read).toEqual(event);
    const { type, deliveryKey, endpoint } = contextOf(strings);
    expect([context.type, context.deliveryKey, context.endpoint]).toEqual([type, deliveryKey, endpoint]);
  });

  it("holds an event whose toJSON may write anything as its JSON text", () => {
    const event = { data: { at: { toJSON: () => "\u0000" } } };
    const data = stored(event, contextOf());
    expect(data.event).toBe(JSON.stringify(event));
    expect(readQueuedDelivery(data, { id: "job_1", attempt: 1 }).event).toEqual({ data: { at: "\u0000" } });
  });

  it("is stored as it is by jsonb, and read back unchanged, for any event and any strings", () => {
    const unit = fc.oneof(
      fc.integer({ min: 0xd800, max: 0xdfff }),
      fc.constantFrom(0x00, 0x22, 0x5c, 0x0a),
      fc.integer({ min: 0x20, max: 0x7e }),
    );
    const text = fc.array(unit, { maxLength: 6 }).map((units) => String.fromCharCode(...units));
    // Keys without a backslash: once V8's JSON.parse (Node 24 and 26) has read a key holding one, it may decode a
    // later escaped key as a lone backslash, in any JSON text. That is the engine's parser, not the job's format.
    const keyText = text.filter((candidate) => !candidate.includes("\\"));
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        text,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        tie("array"),
        tie("object"),
      ),
      array: fc.array(tie("value"), { maxLength: 3 }),
      object: fc.dictionary(keyText, tie("value"), { maxKeys: 3 }),
    }));
    fc.assert(
      fc.property(json.object, text, text, fc.option(text, { nil: undefined }), (event, type, key, endpoint) => {
        const context = contextOf({
          type,
          deliveryKey: `event:${key}`,
          ...(endpoint === undefined ? {} : { endpoint }),
        });
        const data = stored(event, context);
        const read = readQueuedDelivery(data, { id: "job_1", attempt: 1 });
        return (
          stringsOf(data).every(jsonbTakes) &&
          JSON.stringify(read.event) === JSON.stringify(event) &&
          read.context.type === type &&
          read.context.deliveryKey === `event:${key}` &&
          read.context.endpoint === endpoint
        );
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("readableJobText", () => {
  it("decodes job text only in a job that holds its event as text", () => {
    expect(readableJobText('event:say \\"hi\\"', true)).toBe('event:say "hi"');
    expect(readableJobText("event:a\\nb", false)).toBe("event:a\\nb");
    expect(readableJobText("event:\\", true)).toBe("event:\\");
  });
});
