import { createHmac } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sign as octokitSign } from "@octokit/webhooks-methods";
import { createReceiver, type EventMap } from "@tidings/core";
import { github, type Scheme, shopify, stripe } from "@tidings/core/schemes";
import { webhookMiddleware } from "@tidings/express";
import express from "express";
import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

// One Express route for three senders, with no endpoint label and no dedupScope: their dedup keys share one space.
// GitHub and Shopify sign the body only; X-GitHub-Delivery, X-GitHub-Event, X-Shopify-Webhook-Id and X-Shopify-Topic
// are whatever the sender of the request writes.
const SENDERS: Record<string, { scheme: Scheme; secret: string }> = {
  stripe: { scheme: stripe(), secret: "whsec_stripe_endpoint_secret" },
  github: { scheme: github(), secret: "github hook secret" },
  shopify: { scheme: shopify(), secret: "shpss_app_client_secret" },
};

type Answer = { received?: boolean; duplicate?: boolean; error?: { code: string } };

let server: Server | undefined;
let runs: string[];
let post: (sender: string, body: string, headers: Record<string, string>) => Promise<string>;

beforeEach(async () => {
  runs = [];
  const receiver = createReceiver<EventMap>({
    scheme: Object.values(SENDERS).map((sender) => sender.scheme),
    secret: ({ params }) => SENDERS[params.sender ?? ""],
    logger: { error() {}, warn() {} },
  })
    .on("issues.opened", () => {
      runs.push("issues.opened handler");
    })
    .onAny((_event, context) => {
      runs.push(context.type);
    });
  server = createServer(express().post("/webhooks/:sender", webhookMiddleware(receiver))).listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  post = async (sender, body, headers) => {
    const response = await fetch(`${url}/${sender}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });
    const answer = (await response.json()) as Answer;
    return answer.error?.code ?? (answer.duplicate ? "duplicate" : "accepted");
  };
});

afterEach(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((done) => server?.close(done));
});

// Captured in transit or from a log: the body and every header as the sender sent them.
const issueBody = JSON.stringify({ action: "closed", issue: { number: 7, title: "Crash on start" } });
const orderBody = JSON.stringify({ id: 820982911946154500, financial_status: "pending", total_price: "19.00" });

async function capturedIssue() {
  return {
    "x-github-event": "issues",
    "x-github-delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
    "x-hub-signature-256": await octokitSign(SENDERS.github?.secret as string, issueBody),
  };
}

function capturedOrder() {
  return {
    "x-shopify-topic": "orders/create",
    "x-shopify-webhook-id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
    "x-shopify-hmac-sha256": createHmac("sha256", SENDERS.shopify?.secret as string)
      .update(orderBody)
      .digest("base64"),
  };
}

function stripeEvent(id: string) {
  const body = JSON.stringify({ id, type: "invoice.paid", data: { object: { id: "in_1" } } });
  const signature = new Stripe("sk_test_unused").webhooks.generateTestHeaderString({
    payload: body,
    secret: SENDERS.stripe?.secret as string,
  });
  return { body, headers: { "stripe-signature": signature } };
}

describe("replays through the headers GitHub and Shopify do not sign, on one Express route for three senders", () => {
  it("a GitHub capture sent with a Stripe event's id as X-GitHub-Delivery does not suppress that Stripe event", async () => {
    const headers = await capturedIssue();
    const paid = stripeEvent("evt_1NvUpcamingInvoice");
    expect(await post("github", issueBody, headers)).toBe("accepted");
    const replay = { ...headers, "x-github-delivery": "evt_1NvUpcamingInvoice" };
    expect(await post("github", issueBody, replay)).toBe("duplicate");
    expect(await post("stripe", paid.body, paid.headers)).toBe("accepted");
    // And the other way round: a fresh capture sent with the id of a Stripe event already handled still is one.
    expect(await post("github", issueBody, { ...replay, "x-github-event": "pull_request" })).toBe("duplicate");
    expect(runs).toEqual(["issues.closed", "invoice.paid"]);
  });

  it("a Shopify capture sent with a Stripe event's id as X-Shopify-Webhook-Id does not suppress that Stripe event", async () => {
    const paid = stripeEvent("evt_1NvShopifyLookalike");
    const replay = { ...capturedOrder(), "x-shopify-webhook-id": "evt_1NvShopifyLookalike" };
    expect(await post("shopify", orderBody, replay)).toBe("accepted");
    expect(await post("stripe", paid.body, paid.headers)).toBe("accepted");
    expect(runs).toEqual(["orders/create", "invoice.paid"]);
  });

  it("GitHub's redelivery and a capture sent with new X-GitHub-Delivery values are duplicates: the handlers run once", async () => {
    const headers = await capturedIssue();
    expect(await post("github", issueBody, headers)).toBe("accepted");
    expect(await post("github", issueBody, headers)).toBe("duplicate");
    for (let n = 0; n < 20; n++) {
      expect(await post("github", issueBody, { ...headers, "x-github-delivery": crypto.randomUUID() })).toBe(
        "duplicate",
      );
    }
    expect(runs).toEqual(["issues.closed"]);
  });

  it("a GitHub capture sent with another X-GitHub-Event once the original was handled is a duplicate", async () => {
    const headers = await capturedIssue();
    expect(await post("github", issueBody, headers)).toBe("accepted");
    for (const event of ["pull_request", "discussion", "issue_comment", "ping"]) {
      const replay = { ...headers, "x-github-event": event, "x-github-delivery": crypto.randomUUID() };
      expect(await post("github", issueBody, replay)).toBe("duplicate");
    }
    expect(runs).toEqual(["issues.closed"]);
  });

  it("before the original is handled, a capture under another X-GitHub-Event runs once under it; the original is then a duplicate", async () => {
    const headers = await capturedIssue();
    const replay = { ...headers, "x-github-event": "pull_request", "x-github-delivery": crypto.randomUUID() };
    expect(await post("github", issueBody, replay)).toBe("accepted");
    expect(await post("github", issueBody, headers)).toBe("duplicate");
    expect(runs).toEqual(["pull_request.closed"]);
  });

  it("no X-GitHub-Event and no action reach the `issues.opened` handler for a delivery GitHub did not send as one", async () => {
    const headers = await capturedIssue();
    const push = JSON.stringify({ ref: "refs/heads/main", commits: [] });
    const pushHeaders = {
      "x-github-event": "issues.opened",
      "x-hub-signature-256": await octokitSign("github hook secret", push),
    };
    expect(await post("github", push, pushHeaders)).toBe("malformed_header");
    expect(await post("github", issueBody, { ...headers, "x-github-event": "issues.opened" })).toBe("malformed_header");
    const dotted = JSON.stringify({ action: "opened.evil", issue: { number: 8 } });
    const dottedHeaders = {
      "x-github-event": "issues",
      "x-hub-signature-256": await octokitSign("github hook secret", dotted),
    };
    expect(await post("github", dotted, dottedHeaders)).toBe("accepted");
    expect(runs).toEqual(["issues"]);
  });

  it("Shopify's retry and a capture with new X-Shopify-Webhook-Id values are duplicates; another topic runs that topic once", async () => {
    const headers = capturedOrder();
    expect(await post("shopify", orderBody, headers)).toBe("accepted");
    expect(await post("shopify", orderBody, headers)).toBe("duplicate");
    for (let n = 0; n < 20; n++) {
      expect(await post("shopify", orderBody, { ...headers, "x-shopify-webhook-id": crypto.randomUUID() })).toBe(
        "duplicate",
      );
    }
    // What the topic being unsigned still allows: the captured order body, run as a paid order, once.
    const asPaid = { ...headers, "x-shopify-topic": "orders/paid", "x-shopify-webhook-id": crypto.randomUUID() };
    expect([await post("shopify", orderBody, asPaid), await post("shopify", orderBody, asPaid)]).toEqual([
      "accepted",
      "duplicate",
    ]);
    expect(runs).toEqual(["orders/create", "orders/paid"]);
  });
});
