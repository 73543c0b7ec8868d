import type { WebhookEventMap } from "@octokit/webhooks-types";
import { createReceiver } from "@tidings/core";
import { type EventsByType, type GitHubEvents, github, stripe } from "@tidings/core/schemes";
import type Stripe from "stripe";
import { describe, expectTypeOf, it } from "vitest";

describe("typed events from the senders' own published types", () => {
  it("types Stripe handlers with Stripe.Event, narrowed by type", () => {
    const receiver = createReceiver({ scheme: stripe<EventsByType<Stripe.Event>>(), secret: "whsec_x" });
    receiver.on("invoice.paid", (event) => {
      expectTypeOf(event).toEqualTypeOf<Stripe.InvoicePaidEvent>();
      expectTypeOf(event.data.object).toEqualTypeOf<Stripe.Invoice>();
    });
    // @ts-expect-error: not a Stripe event type
    receiver.on("invoice.nonsense", () => {});
  });

  it("types GitHub handlers with @octokit/webhooks-types, by event and by event.action", () => {
    const receiver = createReceiver({ scheme: github<GitHubEvents<WebhookEventMap>>(), secret: "s" });
    receiver.on("issues.opened", (event) => {
      expectTypeOf(event.action).toEqualTypeOf<"opened">();
      expectTypeOf(event.issue.number).toEqualTypeOf<number>();
    });
    receiver.on("issues", (event) => {
      expectTypeOf(event.action).toEqualTypeOf<WebhookEventMap["issues"]["action"]>();
    });
    receiver.on("push", (event) => {
      expectTypeOf(event.ref).toEqualTypeOf<string>();
    });
  });
});
