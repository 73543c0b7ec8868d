import { standardWebhooks } from "@tidings/core/schemes";
import { Webhook } from "standardwebhooks";
import { accepted } from "./accepted";
import { describeSender } from "./harness";

describeSender("Standard Webhooks", {
  scheme: standardWebhooks(),
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  otherSecret: "whsec_c2Vjb25kIHNlY3JldCBmb3Igcm90YXRpb24=",
  body: JSON.stringify({ type: "invoice.paid", data: { id: "in_1", note: "héllo ✓" } }),
  type: "invoice.paid",
  timed: true,
  sign(body, secret, timestamp) {
    const id = `msg_${timestamp}`;
    const signature = new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
    return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signature };
  },
  accepts: (body, headers, secret) => accepted(() => new Webhook(secret).verify(body, headers)),
});
