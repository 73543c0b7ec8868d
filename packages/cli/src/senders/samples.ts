import { github } from "./github";
import type { SenderSample } from "./sample";
import { shopify } from "./shopify";
import { slack } from "./slack";
import { standardWebhooks } from "./standard-webhooks";
import { stripe } from "./stripe";

/** Each catalogue scheme's sample delivery, by the scheme's name. */
export const SAMPLES: Readonly<Record<string, SenderSample>> = {
  "standard-webhooks": standardWebhooks,
  svix: standardWebhooks,
  stripe,
  github,
  shopify,
  slack,
};
