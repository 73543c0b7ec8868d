import { iso, json, type SenderSample } from "./sample";

/** A `userEntered` event as Liveblocks sends it; the `webhook-id` its `sign` writes is `id`. */
export const liveblocks: SenderSample = (_id, now) =>
  json({
    type: "userEntered",
    data: {
      projectId: "605a50b01a36d5ea7a2e9104",
      roomId: "examples-hero-21-07-2022",
      connectionId: 32,
      userId: "user-123",
      userInfo: { name: "Ada Lovelace" },
      enteredAt: iso(now),
      numActiveUsers: 1,
    },
  });
