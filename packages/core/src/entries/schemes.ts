// `@tidings/core/schemes`: how each sender signs its webhooks. `createReceiver({ scheme: stripe(), secret })`, or
// `stripe().verify(body, headers, secret)` on its own. Each scheme is its own module, so a bundle holds only those used.
export type { VerifyOptions } from "../tolerance";
export type { VerifyResult } from "../verification";
export { ed25519PublicKey } from "./ed25519";
export { github } from "./github";
export type { EventsByType, GitHubEvents, Scheme, SchemeSignOptions } from "./scheme";
export { serviceSignature } from "./service-signature";
export { shopify } from "./shopify";
export { slack } from "./slack";
export { standardWebhooks, svix } from "./standard-webhooks";
export { stripe } from "./stripe";
