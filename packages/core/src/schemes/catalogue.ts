import { github } from "./github";
import type { Scheme } from "./scheme";
import { serviceSignature } from "./service-signature";
import { shopify } from "./shopify";
import { slack } from "./slack";
import { standardWebhooks, svix } from "./standard-webhooks";
import { stripe } from "./stripe";

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
  return [serviceSignature(), standardWebhooks(), svix(), stripe(), github(), shopify(), slack()];
}
