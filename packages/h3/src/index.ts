export type { H3EventLike, H3EventV1Like, H3EventV2Like, WebhookEventHandler } from "./events";
export { defineWebhookHandler } from "./handler";
