import { iso, json, type SenderSample } from "./sample";

/** A `user.created` event as WorkOS sends it (trimmed); its `id` is `id`, the dedup key. */
export const workos: SenderSample = (id, now) =>
  json({
    id,
    event: "user.created",
    data: {
      object: "user",
      id: "user_01E4ZCR3C56J083X43JQXF3JK5",
      email: "ada@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      email_verified: true,
      created_at: iso(now),
      updated_at: iso(now),
    },
    created_at: iso(now),
  });
