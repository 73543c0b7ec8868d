import { resend } from "@tidings/core/schemes";
import { Resend } from "resend";
import { accepted } from "./accepted";
import { describeSender } from "./harness";
import { standardSign } from "./standard-signer";

const client = new Resend("re_interop_api_key");

describeSender("Resend", {
  scheme: resend(),
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  otherSecret: "whsec_c2Vjb25kIHNlY3JldCBmb3Igcm90YXRpb24=",
  body: JSON.stringify({
    type: "email.bounced",
    created_at: "2024-11-22T23:41:12.126Z",
    data: { email_id: "56761188-7520-42d8-8898-ff6fc54ce618", to: ["héllo@example.org"] },
  }),
  type: "email.bounced",
  timed: true,
  sign: (body, secret, timestamp) => standardSign("svix", secret, body, timestamp),
  // As Resend's docs call it: the svix-* headers handed over by name.
  accepts: (body, headers, secret) =>
    accepted(() =>
      client.webhooks.verify({
        payload: body,
        headers: {
          id: headers["svix-id"] ?? "",
          timestamp: headers["svix-timestamp"] ?? "",
          signature: headers["svix-signature"] ?? "",
        },
        webhookSecret: secret,
      }),
    ),
});
