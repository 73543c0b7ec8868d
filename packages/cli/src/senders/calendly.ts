import { iso, json, type SenderSample } from "./sample";

/**
 * An `invitee.created` event as Calendly sends it (trimmed). Calendly's events carry no id: the invitee's `uri` holds
 * `id`, so that each sample is a new booking.
 */
export const calendly: SenderSample = (id, now) =>
  json({
    created_at: iso(now),
    created_by: "https://api.calendly.com/users/AAAAAAAAAAAAAAAA",
    event: "invitee.created",
    payload: {
      uri: `https://api.calendly.com/scheduled_events/GBGBDCAADAEDCRZ2/invitees/${id}`,
      email: "ada@example.com",
      name: "Ada Lovelace",
      status: "active",
      timezone: "Europe/London",
      event: "https://api.calendly.com/scheduled_events/GBGBDCAADAEDCRZ2",
      created_at: iso(now),
      updated_at: iso(now),
      rescheduled: false,
    },
  });
