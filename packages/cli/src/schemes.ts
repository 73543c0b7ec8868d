import { github, type Scheme, shopify, slack, standardWebhooks, stripe, svix } from "@tidings/core/schemes";

/** The senders `--scheme` names; `service-signature` (the default) keeps the service's own probes and output. */
export const SCHEMES: Readonly<Record<string, () => Scheme>> = {
  "standard-webhooks": standardWebhooks,
  svix,
  stripe,
  github,
  shopify,
  slack,
};

export const SCHEME_NAMES = ["service-signature", ...Object.keys(SCHEMES)] as const;

/** The scheme named, or undefined for the service's own. */
export function schemeNamed(name: string | undefined): Scheme | undefined {
  return name === undefined || name === "service-signature" ? undefined : SCHEMES[name]?.();
}

/** The headers a sender sends besides the signature: what the scheme reads the event's id and type from. */
export function senderHeaders(scheme: Scheme, id: string): Record<string, string> {
  if (scheme.name === "github") return { "x-github-event": "issues", "x-github-delivery": id };
  if (scheme.name === "shopify") return { "x-shopify-topic": "orders/create", "x-shopify-webhook-id": id };
  return {};
}

/** A JSON body the scheme's receivers accept as an event: Slack's carries its event in an `event_callback`. */
export function senderBody(scheme: Scheme, event: { id: string; type: string } & Record<string, unknown>): object {
  if (scheme.name === "slack") return { type: "event_callback", event_id: event.id, event };
  if (scheme.name === "github") return { action: "opened", ...event };
  return event;
}
