import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createReceiver, type DeliveryEvent } from "../../src/entries";
import { dropbox, line, meta } from "../../src/entries/schemes";

const NO_HEADERS = {};
const lineBody = (events: unknown[]) => ({ destination: "U1", events }) as DeliveryEvent;

describe("line", () => {
  const scheme = line();
  it("types a body by the type its events share, else mixed; a body with no events array has none", () => {
    const ev = (type: unknown, id = "01A") => ({ type, webhookEventId: id });
    expect(scheme.typeOf(lineBody([ev("message"), ev("message")]), NO_HEADERS)).toBe("message");
    expect(scheme.typeOf(lineBody([ev("follow"), ev("message")]), NO_HEADERS)).toBe("mixed");
    expect(scheme.typeOf(lineBody([ev("message.evil")]), NO_HEADERS)).toBe("mixed");
    expect(scheme.typeOf(lineBody([ev(7)]), NO_HEADERS)).toBe("mixed");
    expect(scheme.typeOf({ destination: "U1" }, NO_HEADERS)).toBeUndefined();
    expect(scheme.typeOf(lineBody([null]), NO_HEADERS)).toBeUndefined();
  });

  it("keys a body by its events' ids, sorted, whatever their order; no key when one lacks a well-formed id", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[0-9A-Z]{26}$/), { minLength: 1, maxLength: 8 }), (ids) => {
        const events = ids.map((webhookEventId) => ({ type: "message", webhookEventId }));
        const key = scheme.idOf(lineBody(events), new Uint8Array(), NO_HEADERS);
        expect(key).toBe([...ids].sort().join(","));
        expect(scheme.idOf(lineBody([...events].reverse()), new Uint8Array(), NO_HEADERS)).toBe(key);
      }),
    );
    expect(
      scheme.idOf(lineBody([{ webhookEventId: "01A" }, { webhookEventId: "a,b" }]), new Uint8Array(), NO_HEADERS),
    ).toBeUndefined();
    expect(scheme.idOf(lineBody([{ type: "message" }]), new Uint8Array(), NO_HEADERS)).toBeUndefined();
  });

  it("answers a verified body with no events, and only that", () => {
    expect(scheme.respond?.(lineBody([]), { secret: "s" })?.status).toBe(200);
    expect(scheme.respond?.(lineBody([{ type: "message" }]), { secret: "s" })).toBeUndefined();
  });
});

describe("meta", () => {
  const scheme = meta();
  const body = (object: unknown, ...fields: unknown[]) =>
    ({ object, entry: [{ id: "1", changes: fields.map((field) => ({ field, value: {} })) }] }) as DeliveryEvent;
  it("types by object, and object.field when every change names one word field", () => {
    expect(scheme.typeOf(body("instagram", "comments", "comments"), NO_HEADERS)).toBe("instagram.comments");
    expect(scheme.typeOf(body("instagram", "comments", "mentions"), NO_HEADERS)).toBe("instagram");
    expect(scheme.typeOf(body("instagram", "comments.evil"), NO_HEADERS)).toBe("instagram");
    expect(scheme.typeOf(body("instagram"), NO_HEADERS)).toBe("instagram");
    expect(scheme.typeOf(body("Page.x", "feed"), NO_HEADERS)).toBeUndefined();
    expect(scheme.typeOf({ entry: [] }, NO_HEADERS)).toBeUndefined();
  });

  it("keys a delivery by its signature", () => {
    const headers = scheme.sign("{}", "app secret");
    expect(scheme.idOf({}, new Uint8Array(), headers)).toBe(`meta:${headers["x-hub-signature-256"]?.slice(7)}`);
  });
});

describe("dropbox", () => {
  it("runs every notification, the same body included: each gets a key of its own", async () => {
    const seen = new Set<string>();
    const receiver = createReceiver({ scheme: dropbox(), secret: "app secret" }).onAny((_event, ctx) => {
      seen.add(ctx.deliveryKey);
    });
    const body = JSON.stringify({ list_folder: { accounts: ["dbid:A"] } });
    const headers = dropbox().sign(body, "app secret");
    for (let i = 0; i < 5; i++)
      expect((await receiver.receive({ rawBody: Buffer.from(body), headers })).code).toBe("accepted");
    expect(seen.size).toBe(5);
    expect(dropbox().typeOf({ other: 1 }, NO_HEADERS)).toBe("notification");
  });
});
