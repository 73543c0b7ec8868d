import { iso, json, type SenderSample, uuidOf } from "./sample";

/** An `email.bounced` event as Resend sends it through Svix (trimmed); the `svix-id` its `sign` writes is `id`. */
export const resend: SenderSample = (id, now) =>
  json({
    type: "email.bounced",
    created_at: iso(now),
    data: {
      email_id: uuidOf(id),
      created_at: iso(now),
      from: "Acme <onboarding@resend.dev>",
      to: ["delivered@resend.dev"],
      subject: "Sending this example",
      bounce: {
        message: "The recipient's email address is on the suppression list.",
        subType: "Suppressed",
        type: "Permanent",
      },
    },
  });
