import { digitsOf, json, type SenderSample } from "./sample";

/**
 * An APPLICATION_COMMAND interaction (`type: 2`) for a `/roll` slash command, as Discord sends it (trimmed); its `id`,
 * the dedup key, is made of `id`.
 */
export const discord: SenderSample = (id) =>
  json({
    app_permissions: "442368",
    application_id: "1101496284453826601",
    channel_id: "1101496284915195934",
    data: {
      id: "1101498421581389884",
      name: "roll",
      options: [{ name: "sides", type: 4, value: 20 }],
      type: 1,
    },
    entitlements: [],
    guild_id: "1101496284453826600",
    guild_locale: "en-US",
    id: digitsOf(id),
    locale: "en-US",
    member: {
      user: { id: "53908232506183680", username: "ada", global_name: "Ada", discriminator: "0" },
      roles: [],
      permissions: "2248473465835073",
      joined_at: "2023-04-27T12:00:00.000000+00:00",
    },
    token: "aW50ZXJhY3Rpb246MTEwMTUwMDY2MTI4MDgwNzAxODpBYmNE",
    type: 2,
    version: 1,
  });
