// `@tidings/core/schemes`: how each sender signs its webhooks. `createReceiver({ scheme: stripe(), secret })`, or
// `stripe().verify(body, headers, secret)` on its own. Each scheme is its own module, so a bundle holds only those used.

export { type HmacAlgorithm, hmacMatchers } from "../crypto/hmac-matchers";
export type { Matchers, SecretFormat, SignatureMatch, SignedContent } from "../crypto/signed-content";
export { adyen } from "../schemes/adyen";
export { answer } from "../schemes/answer";
export { calendly } from "../schemes/calendly";
export { catalogue } from "../schemes/catalogue";
export { clerk } from "../schemes/clerk";
export { defineScheme, type SchemeParts } from "../schemes/define";
export { discord, discordPublicKey } from "../schemes/discord";
export { dropbox } from "../schemes/dropbox";
export { ed25519PublicKey } from "../schemes/ed25519";
export { github } from "../schemes/github";
export { gitlab } from "../schemes/gitlab";
export { malformed, noSignature, requiredHeader, timestampOf } from "../schemes/headers";
export { hubspot } from "../schemes/hubspot";
export { intercom } from "../schemes/intercom";
export { lemonSqueezy } from "../schemes/lemon-squeezy";
export { type LineEvents, line } from "../schemes/line";
export { linear } from "../schemes/linear";
export { liveblocks } from "../schemes/liveblocks";
export { mailgun } from "../schemes/mailgun";
export { meta } from "../schemes/meta";
export { mux } from "../schemes/mux";
export { paddle } from "../schemes/paddle";
export { plivo } from "../schemes/plivo";
export { polar } from "../schemes/polar";
export { postmark } from "../schemes/postmark";
export { qstash } from "../schemes/qstash";
export { resend } from "../schemes/resend";
export type {
  EventsByType,
  GitHubEvents,
  HandshakeRequest,
  Scheme,
  SchemeAbout,
  SchemeSignOptions,
  SecretKind,
  SignedRequest,
} from "../schemes/scheme";
export { type SendGridBatch, sendgrid } from "../schemes/sendgrid";
export { sentry } from "../schemes/sentry";
export { serviceSignature } from "../schemes/service-signature";
export { shopify } from "../schemes/shopify";
export { signingBytes, signingTime } from "../schemes/sign-helpers";
export { slack } from "../schemes/slack";
export { square } from "../schemes/square";
export { standardWebhooks, svix } from "../schemes/standard-webhooks";
export { stripe } from "../schemes/stripe";
export { telnyx } from "../schemes/telnyx";
export { twilio } from "../schemes/twilio";
export { twitch } from "../schemes/twitch";
export { typeform } from "../schemes/typeform";
export { vercel } from "../schemes/vercel";
export { vonage } from "../schemes/vonage";
export { workos } from "../schemes/workos";
export { zoom } from "../schemes/zoom";
export { parseSignatureHeader, type SignatureHeader } from "../verification/signature-header";
export type { SignedDelivery, VerifyResult } from "../verification/signed-delivery";
export type { VerifyOptions } from "../verification/tolerance";
