// What a sender that signs through the Standard Webhooks reference library (Clerk and Resend via Svix, Polar,
// Liveblocks) sends: `<prefix>-id`, `<prefix>-timestamp` and `<prefix>-signature`, signed by `standardwebhooks`.
import { Webhook } from "standardwebhooks";

export function standardSign(prefix: "svix" | "webhook", secret: string, body: string, timestamp: number) {
  const id = `msg_${timestamp}`;
  const signature = new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
  return { [`${prefix}-id`]: id, [`${prefix}-timestamp`]: String(timestamp), [`${prefix}-signature`]: signature };
}
