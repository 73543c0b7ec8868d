import { json, type SenderSample } from "./sample";

/** A `user.created` event in the Standard Webhooks payload shape (`type`, `timestamp`, `data`). */
export const standardWebhooks: SenderSample = (_id, now) =>
  json({
    type: "user.created",
    timestamp: new Date(now * 1000).toISOString(),
    data: { id: "user_2NNEqL2nrIRdJ194ndJqAHwEfxC", email: "ada@example.com" },
  });
