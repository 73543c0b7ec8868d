import { alphanumeric, json, type SenderSample } from "./sample";

/**
 * An incoming WhatsApp text message, as Meta sends it (`whatsapp_business_account`, field `messages`); the message's
 * `wamid` holds `id`. The scheme dedups by the signature: the body names no delivery id.
 */
export const meta: SenderSample = (id, now) =>
  json({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: "106540352242922" },
              contacts: [{ profile: { name: "Ada Lovelace" }, wa_id: "16505551234" }],
              messages: [
                {
                  from: "16505551234",
                  id: `wamid.${alphanumeric(id)}`,
                  timestamp: String(now),
                  type: "text",
                  text: { body: "Hello" },
                },
              ],
            },
          },
        ],
      },
    ],
  });
