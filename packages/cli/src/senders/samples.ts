import { adyen } from "./adyen";
import { calendly } from "./calendly";
import { clerk } from "./clerk";
import { discord } from "./discord";
import { dropbox } from "./dropbox";
import { github } from "./github";
import { gitlab } from "./gitlab";
import { hubspot } from "./hubspot";
import { intercom } from "./intercom";
import { lemonSqueezy } from "./lemon-squeezy";
import { line } from "./line";
import { linear } from "./linear";
import { liveblocks } from "./liveblocks";
import { mailgun } from "./mailgun";
import { meta } from "./meta";
import { mux } from "./mux";
import { paddle } from "./paddle";
import { plivo } from "./plivo";
import { polar } from "./polar";
import { postmark } from "./postmark";
import { qstash } from "./qstash";
import { resend } from "./resend";
import type { SenderSample } from "./sample";
import { sendgrid } from "./sendgrid";
import { sentry } from "./sentry";
import { shopify } from "./shopify";
import { slack } from "./slack";
import { square } from "./square";
import { standardWebhooks } from "./standard-webhooks";
import { stripe } from "./stripe";
import { telnyx } from "./telnyx";
import { twilio } from "./twilio";
import { twitch } from "./twitch";
import { typeform } from "./typeform";
import { vercel } from "./vercel";
import { vonage } from "./vonage";
import { workos } from "./workos";
import { zoom } from "./zoom";

/** Each catalogue scheme's sample delivery, by the scheme's name. */
export const SAMPLES: Readonly<Record<string, SenderSample>> = {
  adyen,
  calendly,
  clerk,
  discord,
  dropbox,
  github,
  gitlab,
  hubspot,
  intercom,
  "lemon-squeezy": lemonSqueezy,
  line,
  linear,
  liveblocks,
  mailgun,
  meta,
  mux,
  paddle,
  plivo,
  polar,
  postmark,
  qstash,
  resend,
  sendgrid,
  sentry,
  shopify,
  slack,
  square,
  "standard-webhooks": standardWebhooks,
  stripe,
  svix: standardWebhooks,
  telnyx,
  twilio,
  twitch,
  typeform,
  vercel,
  vonage,
  workos,
  zoom,
};
