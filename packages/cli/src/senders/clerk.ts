import { json, type SenderSample } from "./sample";

/** A `user.created` event as Clerk sends it through Svix (trimmed); the `svix-id` its `sign` writes is `id`. */
export const clerk: SenderSample = (_id, now) =>
  json({
    data: {
      id: "user_29w83sxmDNGwOuEthce5gg56FcC",
      object: "user",
      first_name: "Ada",
      last_name: "Lovelace",
      email_addresses: [{ id: "idn_29w83yL7CwVlJXylYLxcslromF1", email_address: "ada@example.com" }],
      primary_email_address_id: "idn_29w83yL7CwVlJXylYLxcslromF1",
      created_at: now * 1000,
      updated_at: now * 1000,
    },
    event_attributes: { http_request: { client_ip: "0.0.0.0", user_agent: "Mozilla/5.0" } },
    instance_id: "ins_2ayiLhcYdJxuSDzDtNkcmUOfhPe",
    object: "event",
    timestamp: now * 1000,
    type: "user.created",
  });
