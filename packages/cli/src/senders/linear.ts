import { iso, json, numberOf, type SenderSample, uuidOf } from "./sample";

/**
 * An issue created, as Linear sends it (trimmed). Linear signs its time inside the body, as `webhookTimestamp`: the
 * sample's `now`. `Linear-Delivery` is `id`, but the scheme dedups by the signature (no id survives a retry): the
 * issue is made of `id`, so that each sample is a new issue.
 */
export const linear: SenderSample = (id, now) =>
  json(
    {
      action: "create",
      type: "Issue",
      createdAt: iso(now),
      data: {
        id: uuidOf(id),
        identifier: `ENG-${numberOf(id, 4)}`,
        title: "Found a bug",
        priority: 2,
        teamId: "72b2a2dc-6f4f-4423-9d34-24b5bd10634a",
        stateId: "8e2b4d2a-0b1f-4d4c-9d0e-6a1a4f2f6c1d",
      },
      url: "https://linear.app/example/issue/ENG-123/found-a-bug",
      organizationId: "d2a1c1f6-7c3f-4b0c-9c2e-2f0f1d6a1b2c",
      webhookTimestamp: now * 1000,
      webhookId: "000042e3-d123-4980-b49f-8e140eef9329",
    },
    { "linear-delivery": id, "linear-event": "Issue" },
  );
