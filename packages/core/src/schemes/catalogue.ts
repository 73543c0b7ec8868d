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
import type { Scheme } from "./scheme";
import { sendgrid } from "./sendgrid";
import { sentry } from "./sentry";
import { serviceSignature } from "./service-signature";
import { shopify } from "./shopify";
import { slack } from "./slack";
import { square } from "./square";
import { standardWebhooks, svix } from "./standard-webhooks";
import { stripe } from "./stripe";
import { telnyx } from "./telnyx";
import { twilio } from "./twilio";
import { twitch } from "./twitch";
import { typeform } from "./typeform";
import { vercel } from "./vercel";
import { vonage } from "./vonage";
import { workos } from "./workos";
import { zoom } from "./zoom";

/**
 * Every scheme of `@tidings/core/schemes`, each with its `about`: what `docs/senders.md`, the CLI's `--scheme` and
 * the interop tests are written from. A function, so that a bundle of one scheme does not hold the others.
 *
 * @example
 * ```ts
 * import { catalogue } from "@tidings/core/schemes";
 *
 * for (const { name, about } of catalogue()) console.log(`${name}: ${about?.sender}, replay window ${about?.replay}`);
 * ```
 */
export function catalogue(): readonly Scheme[] {
  return [
    serviceSignature(),
    adyen(),
    calendly(),
    clerk(),
    discord(),
    dropbox(),
    github(),
    gitlab(),
    hubspot(),
    intercom(),
    lemonSqueezy(),
    line(),
    linear(),
    liveblocks(),
    mailgun(),
    meta(),
    mux(),
    paddle(),
    plivo(),
    polar(),
    postmark(),
    qstash(),
    resend(),
    sendgrid(),
    sentry(),
    shopify(),
    slack(),
    square(),
    standardWebhooks(),
    stripe(),
    svix(),
    telnyx(),
    twilio(),
    twitch(),
    typeform(),
    vercel(),
    vonage(),
    workos(),
    zoom(),
  ];
}
