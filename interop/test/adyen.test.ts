// Adyen signs inside the body: each NotificationRequestItem's additionalData.hmacSignature. @adyen/api-library's
// HmacValidator signs (calculateHmac) and verifies (validateHMAC) items; Tidings cannot put a signature in a body, so
// the harness's checks that need Tidings to sign do not apply: the same properties are checked on signed bodies.
import { randomBytes } from "node:crypto";
import { hmacValidator } from "@adyen/api-library";
import { createReceiver } from "@tidings/core";
import { adyen, github } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { codeOf } from "./harness";

const key = randomBytes(32).toString("hex").toUpperCase();
const other = randomBytes(32).toString("hex");
const json = { "content-type": "application/json" };
const validator = new hmacValidator();

const item = {
  additionalData: {} as Record<string, string>,
  amount: { currency: "EUR", value: 1000 },
  eventCode: "AUTHORISATION",
  eventDate: "2025-01-01T01:00:00+01:00",
  merchantAccountCode: "TestMerchant",
  merchantReference: "order-1",
  pspReference: "7914073381342284",
  success: "true",
};

/** A notification with its item signed by the SDK. */
function adyenSigns(changes: Partial<typeof item> = {}, hmacKey = key) {
  const signed = { ...item, ...changes, additionalData: {} as Record<string, string> };
  signed.additionalData.hmacSignature = validator.calculateHmac(signed as never, hmacKey);
  return { live: "false", notificationItems: [{ NotificationRequestItem: signed }] };
}

describe("Adyen (adyen)", () => {
  it("verifies what the SDK signs, sync and async, and says which key of a rotation signed it", async () => {
    const body = JSON.stringify(adyenSigns());
    expect(adyen().verify(body, json, key)).toMatchObject({ secretIndex: 0 });
    expect(await adyen().verifyAsync(Buffer.from(body), new Headers(json), [other, key])).toMatchObject({
      secretIndex: 1,
    });
    const notification = JSON.parse(body);
    expect(validator.validateHMAC(notification.notificationItems[0].NotificationRequestItem, key)).toBe(true);
  });

  it("refuses a changed signed field and a wrong key with signature_mismatch, as the SDK does", async () => {
    for (const [field, value] of [
      ["pspReference", "7914073381342285"],
      ["success", "false"],
      ["eventCode", "CAPTURE"],
      ["amount", { currency: "EUR", value: 100000 }],
    ] as const) {
      const body = adyenSigns();
      const changed = { ...body.notificationItems[0]?.NotificationRequestItem, [field]: value };
      expect(validator.validateHMAC(changed as never, key)).toBe(false);
      const tampered = JSON.stringify({ ...body, notificationItems: [{ NotificationRequestItem: changed }] });
      expect(await codeOf(() => adyen().verify(tampered, json, key))).toBe("signature_mismatch");
    }
    expect(await codeOf(() => adyen().verifyAsync(JSON.stringify(adyenSigns()), json, other))).toBe(
      "signature_mismatch",
    );
  });

  it("signs no time: an old notification still verifies", () => {
    expect(
      adyen().verify(JSON.stringify(adyenSigns({ eventDate: "2001-01-01T00:00:00+01:00" })), json, key).secretIndex,
    ).toBe(0);
  });

  it("answers missing_header without its Content-Type or signature, a typed 400 for a broken one or two items", async () => {
    const body = adyenSigns();
    expect(await codeOf(() => adyen().verify(JSON.stringify(body), {}, key))).toBe("missing_header");
    expect(
      await codeOf(() =>
        adyen().verify(
          JSON.stringify(adyenSigns({ additionalData: {} } as never)).replace(/"hmacSignature":"[^"]*"/, '"x":"y"'),
          json,
          key,
        ),
      ),
    ).toBe("missing_header");
    for (const broken of ["garbage", "", "zz==", "x".repeat(9000)]) {
      const changed = JSON.parse(JSON.stringify(body));
      changed.notificationItems[0].NotificationRequestItem.additionalData.hmacSignature = broken;
      expect(["malformed_header", "no_supported_signature"]).toContain(
        await codeOf(() => adyen().verify(JSON.stringify(changed), json, key)),
      );
    }
    const two = { ...body, notificationItems: [...body.notificationItems, ...body.notificationItems] };
    expect(await codeOf(() => adyen().verify(JSON.stringify(two), json, key))).toBe("malformed_header");
  });

  it("is handled once through a Receiver, typed by eventCode, a second delivery of it a duplicate", async () => {
    const seen: string[] = [];
    const receiver = createReceiver({ scheme: adyen(), secret: key }).onAny((_event, ctx) => {
      seen.push(ctx.type);
    });
    const delivery = { rawBody: Buffer.from(JSON.stringify(adyenSigns())), headers: json };
    expect((await receiver.receive(delivery)).code).toBe("accepted");
    expect((await receiver.receive(delivery)).code).toBe("duplicate");
    expect(seen).toEqual(["AUTHORISATION"]);
  });

  it("takes only a hex key, and describes its sender", () => {
    expect(() => createReceiver({ scheme: adyen(), secret: "not hex" })).toThrow(TypeError);
    expect(() =>
      createReceiver({ scheme: github(), secret: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----" }),
    ).toThrow(TypeError);
    expect(adyen().about).toMatchObject({ sender: "Adyen", dedup: { signed: true } });
  });
});
