// `@tidings/core/schemes`: how each sender signs its webhooks. `createReceiver({ scheme: stripe(), secret })`, or
// `stripe().verify(body, headers, secret)` on its own. Each scheme is its own module, so a bundle holds only those used.

export { ed25519PublicKey } from "../schemes/ed25519";
export { github } from "../schemes/github";
export type { EventsByType, GitHubEvents, Scheme, SchemeSignOptions, SecretKind } from "../schemes/scheme";
export { serviceSignature } from "../schemes/service-signature";
export { shopify } from "../schemes/shopify";
export { slack } from "../schemes/slack";
export { standardWebhooks, svix } from "../schemes/standard-webhooks";
export { stripe } from "../schemes/stripe";
export { parseSignatureHeader, type SignatureHeader } from "../verification/signature-header";
export type { VerifyResult } from "../verification/signed-delivery";
export type { VerifyOptions } from "../verification/tolerance";
