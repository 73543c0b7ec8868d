import { iso, json, numberOf, type SenderSample, uuidOf } from "./sample";

/**
 * A `Bounce` as Postmark sends it (trimmed). The scheme dedups by the body's SHA-256: the bounce's `ID` and
 * `MessageID` are made of `id`, so that each sample is a new bounce.
 */
export const postmark: SenderSample = (id, now) =>
  json({
    RecordType: "Bounce",
    MessageStream: "outbound",
    ID: numberOf(id),
    Type: "HardBounce",
    TypeCode: 1,
    Name: "Hard bounce",
    Tag: "Invitation",
    MessageID: uuidOf(id),
    ServerID: 23,
    Description: "The server was unable to deliver your message (ex: unknown user, mailbox not found).",
    Details: "Test bounce details",
    Email: "john@example.com",
    From: "sender@example.com",
    BouncedAt: iso(now),
    Inactive: true,
    CanActivate: true,
    Subject: "Test subject",
  });
