import { json, type SenderSample } from "./sample";

/** An Events API `event_callback` carrying an `app_mention`, as Slack sends it. */
export const slack: SenderSample = (id, now) =>
  json({
    token: "Jhj5dZrVaK7ZwHHjRyZWjbDl",
    team_id: "T0001",
    api_app_id: "A0001",
    type: "event_callback",
    event_id: id,
    event_time: now,
    event: {
      type: "app_mention",
      user: "U0001",
      text: "<@U0LAN0Z89> is it everything a river should be?",
      ts: `${now}.000200`,
      channel: "C0001",
    },
  });
