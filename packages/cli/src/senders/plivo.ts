import { form, type SenderSample, uuidOf } from "./sample";

/**
 * A message status callback as Plivo posts it, a form, for a message delivered; its `MessageUUID` is made of `id`:
 * the scheme dedups by `MessageUUID` and `Status`.
 */
export const plivo: SenderSample = (id) =>
  form({
    From: "14155551234",
    To: "14155556789",
    Status: "delivered",
    MessageUUID: uuidOf(id),
    ParentMessageUUID: uuidOf(id),
    PartInfo: "1 of 1",
    TotalAmount: "0.00500",
    TotalRate: "0.00500",
    Units: "1",
    MCC: "310",
    MNC: "260",
    ErrorCode: "",
  });
