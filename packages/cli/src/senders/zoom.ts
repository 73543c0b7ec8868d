import { json, numberOf, type SenderSample } from "./sample";

/**
 * A `meeting.started` event as Zoom sends it (trimmed); the meeting's `uuid`, from which the dedup key is made with
 * `event` and `event_ts`, is `id`.
 */
export const zoom: SenderSample = (id, now) =>
  json({
    event: "meeting.started",
    event_ts: now * 1000,
    payload: {
      account_id: "AAAAAABBBB",
      object: {
        id: numberOf(id, 10),
        uuid: id,
        host_id: "x1yCzABCDEfg23HiJKl4mN",
        topic: "My Meeting",
        type: 2,
        start_time: new Date(now * 1000).toISOString().replace(/\.\d+Z$/, "Z"),
        timezone: "America/Los_Angeles",
        duration: 60,
      },
    },
  });
