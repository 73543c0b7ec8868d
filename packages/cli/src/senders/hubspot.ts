import { json, numberOf, type SenderSample } from "./sample";

/**
 * A `contact.creation` event as HubSpot sends it: a JSON array of events, which the scheme types `batch`; the event's
 * `eventId` is made of `id`, so that each sample is a new event.
 */
export const hubspot: SenderSample = (id, now) =>
  json([
    {
      eventId: numberOf(id),
      subscriptionId: 2881778,
      portalId: 62515,
      appId: 1160452,
      occurredAt: now * 1000,
      subscriptionType: "contact.creation",
      attemptNumber: 0,
      objectId: 123,
      changeFlag: "CREATED",
      changeSource: "CRM",
    },
  ]);
