// `@tidings/core/schemes`: how each sender signs its webhooks. `createReceiver({ scheme: stripe(), secret })`, or
// `stripe().verify(body, headers, secret)` on its own. Each scheme is its own module, so a bundle holds only those used.

export { type HmacAlgorithm, hmacMatchers } from "../crypto/hmac-matchers";
export type { Matchers, SecretFormat, SignatureMatch, SignedContent } from "../crypto/signed-content";
export { adyen } from "../schemes/adyen";
export { answer } from "../schemes/answer";
export { defineScheme, type SchemeParts } from "../schemes/define";
export { discord, discordPublicKey } from "../schemes/discord";
export { ed25519PublicKey } from "../schemes/ed25519";
export { github } from "../schemes/github";
export { malformed, noSignature, requiredHeader, timestampOf } from "../schemes/headers";
export { mailgun } from "../schemes/mailgun";
export { qstash } from "../schemes/qstash";
export type {
  EventsByType,
  GitHubEvents,
  Scheme,
  SchemeAbout,
  SchemeSignOptions,
  SecretKind,
  SignedRequest,
} from "../schemes/scheme";
export { type SendGridBatch, sendgrid } from "../schemes/sendgrid";
export { serviceSignature } from "../schemes/service-signature";
export { shopify } from "../schemes/shopify";
export { slack } from "../schemes/slack";
export { standardWebhooks, svix } from "../schemes/standard-webhooks";
export { stripe } from "../schemes/stripe";
export { telnyx } from "../schemes/telnyx";
export { twitch } from "../schemes/twitch";
export { vonage } from "../schemes/vonage";
export { zoom } from "../schemes/zoom";
export { parseSignatureHeader, type SignatureHeader } from "../verification/signature-header";
export type { SignedDelivery, VerifyResult } from "../verification/signed-delivery";
export type { VerifyOptions } from "../verification/tolerance";
