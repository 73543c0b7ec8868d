import { iso, json, type SenderSample } from "./sample";

/** A `form_response` event as Typeform sends it (trimmed); its `event_id` is `id`, the dedup key. */
export const typeform: SenderSample = (id, now) =>
  json({
    event_id: id,
    event_type: "form_response",
    form_response: {
      form_id: "lT4Z3j",
      token: "a3a12ec67a1365927098a606107fac15",
      submitted_at: iso(now),
      landed_at: iso(now - 60),
      definition: {
        id: "lT4Z3j",
        title: "Webhooks example",
        fields: [{ id: "DlXFaesGBpoF", title: "What is your name?", type: "short_text", ref: "name" }],
      },
      answers: [{ type: "text", text: "Ada Lovelace", field: { id: "DlXFaesGBpoF", type: "short_text", ref: "name" } }],
    },
  });
