import { createReceiver } from "@tidings/core";
import { meta } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { hexHmac, sameText } from "./documented-hmac";
import { describeSender } from "./harness";

const SECRET = "0a1b2c3d4e5f60718293a4b5c6d7e8f9";

// Meta's documented algorithm (developers.facebook.com, "Validate payloads"): sha256=<hex HMAC-SHA256 of the body>,
// keyed by the app secret.
const metaSign = (body: string, secret: string) => ({ "x-hub-signature-256": `sha256=${hexHmac(body, secret)}` });

const whatsapp = (field: string) =>
  JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field,
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: "106540352242922" },
              messages: [
                {
                  from: "16505551234",
                  id: "wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=",
                  type: "text",
                  text: { body: "héllo ✓" },
                },
              ],
            },
          },
        ],
      },
    ],
  });

describeSender("Meta", {
  scheme: meta(),
  secret: SECRET,
  otherSecret: "rotated0meta0app0secret000000000",
  body: whatsapp("messages"),
  type: "whatsapp_business_account.messages",
  timed: false,
  sign: metaSign,
  accepts: (body, headers, secret) =>
    sameText(metaSign(body, secret)["x-hub-signature-256"], headers["x-hub-signature-256"] ?? ""),
});

describe("Meta's objects", () => {
  it("type Messenger's messaging entries by the object, and run a family handler for a field's changes", async () => {
    const seen: string[] = [];
    const receiver = createReceiver({ scheme: meta(), secret: SECRET }).on(
      "whatsapp_business_account",
      (_event, ctx) => {
        seen.push(ctx.type);
      },
    );
    receiver.on("page", (_event, ctx) => {
      seen.push(ctx.type);
    });
    const page = JSON.stringify({
      object: "page",
      entry: [
        { id: "1", time: 1_458_692_752_478, messaging: [{ sender: { id: "2" }, message: { mid: "m1", text: "hi" } }] },
      ],
    });
    for (const sent of [whatsapp("messages"), page]) {
      const result = await receiver.receive({ rawBody: Buffer.from(sent), headers: metaSign(sent, SECRET) });
      expect(result.code).toBe("accepted");
    }
    expect(seen).toEqual(["whatsapp_business_account.messages", "page"]);
  });
});
