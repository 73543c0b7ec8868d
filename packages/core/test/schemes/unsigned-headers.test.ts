import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { until } from "../../../../test/support/wait";
import { createReceiver, type DeliveryContext } from "../../src/entries";
import type { ReceiveResult } from "../../src/entries/adapter";
import { github, shopify, stripe } from "../../src/entries/schemes";
import { bodyOf, quietLogger } from "../receiver-fixtures";

// GitHub and Shopify sign the body only: their delivery id and event type travel in headers nobody signed.
const encoder = new TextEncoder();
const GITHUB_SECRET = "github hook secret";
const SHOPIFY_SECRET = "shpss_app_secret";
const STRIPE_SECRET = "whsec_stripe_endpoint";
const DAY_MS = 24 * 60 * 60 * 1000;

type Headers = Record<string, string>;

function signedBy(scheme: typeof GITHUB | typeof SHOPIFY, secret: string, payload: unknown, extra: Headers) {
  const body = JSON.stringify(payload);
  return { rawBody: encoder.encode(body), headers: { ...scheme.sign(body, secret), ...extra } };
}
const GITHUB = github();
const SHOPIFY = shopify();

const issueClosed = (extra: Headers = {}) =>
  signedBy(
    GITHUB,
    GITHUB_SECRET,
    { action: "closed", issue: { number: 7 } },
    {
      "x-github-event": "issues",
      "x-github-delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
      ...extra,
    },
  );

const orderPaid = (extra: Headers = {}) =>
  signedBy(
    SHOPIFY,
    SHOPIFY_SECRET,
    { id: 820982911946154500, financial_status: "paid" },
    {
      "x-shopify-topic": "orders/paid",
      "x-shopify-webhook-id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
      ...extra,
    },
  );

const answered = (result: ReceiveResult) => {
  const body = bodyOf(result);
  return body.error?.code ?? (body.duplicate ? "duplicate" : "accepted");
};

/** A Receiver on the scheme that records every run as `<type> <dedup key>`; its clock is the test's. */
function receiverOn(scheme: typeof GITHUB, secret: string) {
  const clock = { now: Date.parse("2026-01-01T00:00:00Z") };
  const runs: string[] = [];
  const contexts: DeliveryContext[] = [];
  const receiver = createReceiver({ scheme, secret, logger: quietLogger, now: () => clock.now }).onAny(
    (_event, context) => {
      runs.push(context.type);
      contexts.push(context);
    },
  );
  const send = async (delivery: { rawBody: Uint8Array; headers: Headers }) =>
    answered(await receiver.receive(delivery));
  return { receiver, runs, contexts, clock, send };
}

describe("GitHub: keyed by the signature, not by X-GitHub-Delivery", () => {
  it("keys a delivery `event:github:<hex signature>`", async () => {
    const { send, contexts } = receiverOn(GITHUB, GITHUB_SECRET);
    const delivery = issueClosed();
    expect(await send(delivery)).toBe("accepted");
    const hex = (delivery.headers["x-hub-signature-256"] as string).slice("sha256=".length);
    expect(contexts.map((context) => context.deliveryKey)).toEqual([`event:github:${hex}`]);
  });

  it("answers GitHub's own redelivery (same X-GitHub-Delivery, same body) as a duplicate", async () => {
    const { send, runs } = receiverOn(GITHUB, GITHUB_SECRET);
    expect([await send(issueClosed()), await send(issueClosed())]).toEqual(["accepted", "duplicate"]);
    expect(runs).toEqual(["issues.closed"]);
  });

  it("answers a capture sent again with a new X-GitHub-Delivery as a duplicate", async () => {
    const { send, runs } = receiverOn(GITHUB, GITHUB_SECRET);
    const replays = ["d-2", "d-3", "", "x".repeat(4000)].map((id) => issueClosed({ "x-github-delivery": id }));
    expect(await send(issueClosed())).toBe("accepted");
    for (const replay of replays) expect(await send(replay)).toBe("duplicate");
    expect(runs).toEqual(["issues.closed"]);
  });

  it("answers a capture sent again with another X-GitHub-Event, after the original was handled, as a duplicate", async () => {
    const { send, runs } = receiverOn(GITHUB, GITHUB_SECRET);
    expect(await send(issueClosed())).toBe("accepted");
    for (const name of ["pull_request", "issue_comment", "push"]) {
      expect(await send(issueClosed({ "x-github-event": name, "x-github-delivery": `d-${name}` }))).toBe("duplicate");
    }
    expect(runs).toEqual(["issues.closed"]);
  });

  it("before the original is handled, runs a capture sent with another X-GitHub-Event once, under that type; the original is then a duplicate", async () => {
    const { send, runs } = receiverOn(GITHUB, GITHUB_SECRET);
    expect(await send(issueClosed({ "x-github-event": "pull_request", "x-github-delivery": "d-2" }))).toBe("accepted");
    expect(await send(issueClosed({ "x-github-event": "discussion", "x-github-delivery": "d-3" }))).toBe("duplicate");
    expect(await send(issueClosed())).toBe("duplicate");
    expect(runs).toEqual(["pull_request.closed"]);
  });

  it("while the original's handlers run, answers a capture under another X-GitHub-Event 409 and runs nothing", async () => {
    let finish = () => {};
    const runs: string[] = [];
    const options = { scheme: GITHUB, secret: GITHUB_SECRET, logger: quietLogger, handlerTimeoutMs: 5000 };
    const receiver = createReceiver(options).onAny((_event, context) => {
      runs.push(context.type);
      return new Promise<void>((done) => {
        finish = done;
      });
    });
    const original = receiver.receive(issueClosed());
    await until(() => runs.length === 1, "the first delivery in its handler");
    const during = await receiver.receive(
      issueClosed({ "x-github-event": "pull_request", "x-github-delivery": "d-2" }),
    );
    finish();
    expect([answered(during), answered(await original)]).toEqual(["delivery_in_progress", "accepted"]);
    expect(runs).toEqual(["issues.closed"]);
  });

  it("runs a capture again once doneTtlMs has passed since it was handled: nothing else bounds a replay in time", async () => {
    const { send, runs, clock } = receiverOn(GITHUB, GITHUB_SECRET);
    expect(await send(issueClosed())).toBe("accepted");
    clock.now += DAY_MS - 1;
    expect(await send(issueClosed({ "x-github-delivery": "d-2" }))).toBe("duplicate");
    clock.now += 2;
    expect(await send(issueClosed({ "x-github-delivery": "d-3" }))).toBe("accepted");
    expect(runs).toEqual(["issues.closed", "issues.closed"]);
  });

  it("runs a redelivery signed with a rotated secret again: the key is the HMAC, which the new secret changes", async () => {
    const runs: string[] = [];
    const receiver = createReceiver({
      scheme: GITHUB,
      secret: ["new hook secret", GITHUB_SECRET],
      logger: quietLogger,
    }).onAny((_event, context) => {
      runs.push(context.type);
    });
    const payload = { action: "closed", issue: { number: 7 } };
    const extra = { "x-github-event": "issues", "x-github-delivery": "d-1" };
    const before = signedBy(GITHUB, GITHUB_SECRET, payload, extra);
    const after = signedBy(GITHUB, "new hook secret", payload, extra);
    expect([answered(await receiver.receive(before)), answered(await receiver.receive(after))]).toEqual([
      "accepted",
      "accepted",
    ]);
    expect(runs).toEqual(["issues.closed", "issues.closed"]);
  });
});

describe("GitHub: types built from X-GitHub-Event and the action reach no other event's handlers", () => {
  function routed() {
    const ran: string[] = [];
    const receiver = createReceiver({ scheme: GITHUB, secret: GITHUB_SECRET, logger: quietLogger })
      .on("issues", (_event, context) => {
        ran.push(`issues ${context.type}`);
      })
      .on("issues.opened", () => {
        ran.push("issues.opened");
      });
    return { ran, send: async (delivery: { rawBody: Uint8Array; headers: Headers }) => receiver.receive(delivery) };
  }

  it("types an action with a dot (`opened.evil`) by the event name alone: `issues` handlers, never `issues.opened`", async () => {
    const { ran, send } = routed();
    for (const action of ["opened.evil", "opened.", ".opened", "Opened", "opened evil", ""]) {
      const delivery = signedBy(
        GITHUB,
        GITHUB_SECRET,
        { action, issue: { number: 1 } },
        { "x-github-event": "issues" },
      );
      expect(answered(await send(delivery))).toBe("accepted");
    }
    expect(ran).toEqual(Array(6).fill("issues issues"));
  });

  it("refuses an X-GitHub-Event that is not an event name (`issues.opened` on a push) with 400 malformed_header", async () => {
    const { ran, send } = routed();
    for (const [name, payload] of [
      ["issues.opened", { ref: "refs/heads/main" }],
      ["issues.opened", { action: "closed" }],
      ["issues.", { action: "opened" }],
      ["Issues", { action: "opened" }],
      ["issues opened", {}],
      ["x".repeat(257), {}],
    ] as const) {
      const result = await send(signedBy(GITHUB, GITHUB_SECRET, payload, { "x-github-event": name }));
      expect([result.status, bodyOf(result).error?.code]).toEqual([400, "malformed_header"]);
      expect(bodyOf(result).error?.message).toContain("X-GitHub-Event");
    }
    expect(ran).toEqual([]);
  });

  it("names X-GitHub-Event when a delivery has none (400 missing_header), instead of a missing `type`", async () => {
    const { ran, send } = routed();
    for (const headers of [{}, { "x-github-event": "  " }]) {
      const result = await send(signedBy(GITHUB, GITHUB_SECRET, { action: "opened" }, headers));
      expect([result.status, bodyOf(result).error]).toEqual([
        400,
        { code: "missing_header", message: "No X-GitHub-Event header." },
      ]);
    }
    expect(ran).toEqual([]);
  });
});

describe("Shopify: keyed by the topic and the signature, not by X-Shopify-Webhook-Id", () => {
  it("keys a delivery `event:shopify:<topic>:<base64 signature>`", async () => {
    const { send, contexts } = receiverOn(SHOPIFY, SHOPIFY_SECRET);
    const delivery = orderPaid();
    expect(await send(delivery)).toBe("accepted");
    const signature = delivery.headers["x-shopify-hmac-sha256"];
    expect(contexts.map((context) => context.deliveryKey)).toEqual([`event:shopify:orders/paid:${signature}`]);
  });

  it("answers Shopify's retry, and a capture sent with a new X-Shopify-Webhook-Id, as duplicates", async () => {
    const { send, runs } = receiverOn(SHOPIFY, SHOPIFY_SECRET);
    expect(await send(orderPaid())).toBe("accepted");
    expect(await send(orderPaid())).toBe("duplicate");
    for (const id of ["wh-2", "", "evt_1"])
      expect(await send(orderPaid({ "x-shopify-webhook-id": id }))).toBe("duplicate");
    expect(runs).toEqual(["orders/paid"]);
  });

  it("runs one body sent under several topics once per topic, as Shopify sends an order: none suppresses another", async () => {
    const { send, runs } = receiverOn(SHOPIFY, SHOPIFY_SECRET);
    const topics = ["orders/create", "orders/updated", "orders/paid"];
    for (const topic of topics) expect(await send(orderPaid({ "x-shopify-topic": topic }))).toBe("accepted");
    for (const topic of topics) expect(await send(orderPaid({ "x-shopify-topic": topic }))).toBe("duplicate");
    expect(runs).toEqual(topics);
  });

  it("so a capture sent under another topic runs that topic's handlers, before or after the original, which still runs", async () => {
    const { send, runs } = receiverOn(SHOPIFY, SHOPIFY_SECRET);
    expect(await send(orderPaid({ "x-shopify-topic": "orders/cancelled", "x-shopify-webhook-id": "x" }))).toBe(
      "accepted",
    );
    expect(await send(orderPaid())).toBe("accepted");
    expect(await send(orderPaid({ "x-shopify-topic": "orders/fulfilled", "x-shopify-webhook-id": "y" }))).toBe(
      "accepted",
    );
    expect(runs).toEqual(["orders/cancelled", "orders/paid", "orders/fulfilled"]);
  });

  it("runs a capture again once doneTtlMs has passed since it was handled", async () => {
    const { send, runs, clock } = receiverOn(SHOPIFY, SHOPIFY_SECRET);
    expect(await send(orderPaid())).toBe("accepted");
    clock.now += DAY_MS - 1;
    expect(await send(orderPaid({ "x-shopify-webhook-id": "wh-2" }))).toBe("duplicate");
    clock.now += 2;
    expect(await send(orderPaid({ "x-shopify-webhook-id": "wh-3" }))).toBe("accepted");
    expect(runs).toEqual(["orders/paid", "orders/paid"]);
  });

  it("names X-Shopify-Topic when a delivery has none (missing_header), and refuses one past 256 characters", async () => {
    const { send, runs } = receiverOn(SHOPIFY, SHOPIFY_SECRET);
    const none = signedBy(SHOPIFY, SHOPIFY_SECRET, { id: 1 }, {});
    const long = signedBy(SHOPIFY, SHOPIFY_SECRET, { id: 1 }, { "x-shopify-topic": `orders/${"x".repeat(250)}` });
    expect([await send(none), await send(long)]).toEqual(["missing_header", "malformed_header"]);
    expect(runs).toEqual([]);
  });
});

/** Three senders on one route with no endpoint label and no dedupScope: one key space for all of them. */
function oneKeySpace() {
  const senders: Record<string, { scheme: typeof GITHUB; secret: string }> = {
    stripe: { scheme: stripe(), secret: STRIPE_SECRET },
    github: { scheme: GITHUB, secret: GITHUB_SECRET },
    shopify: { scheme: SHOPIFY, secret: SHOPIFY_SECRET },
  };
  const receiver = createReceiver({
    scheme: Object.values(senders).map((sender) => sender.scheme),
    secret: ({ params }) => senders[params.sender ?? ""],
    logger: quietLogger,
  });
  const at = (sender: string) => ({ path: `/webhooks/${sender}`, params: { sender } });
  return { receiver, at };
}

describe("an unsigned value never suppresses another sender's event", () => {
  it("a GitHub capture carrying a Stripe event's id in every header it sends leaves that Stripe event to run", async () => {
    const runs: string[] = [];
    const { receiver, at } = oneKeySpace();
    receiver.onAny((_event, context) => {
      runs.push(`${context.type} ${context.deliveryKey}`);
    });
    const paidBody = JSON.stringify({ id: "evt_1PaidInvoice", type: "invoice.paid", data: { object: {} } });
    const paid = { rawBody: encoder.encode(paidBody), headers: stripe().sign(paidBody, STRIPE_SECRET) };
    const replay = issueClosed({ "x-github-delivery": "evt_1PaidInvoice" });
    expect(answered(await receiver.receive({ ...issueClosed(), target: at("github") }))).toBe("accepted");
    expect(answered(await receiver.receive({ ...replay, target: at("github") }))).toBe("duplicate");
    expect(answered(await receiver.receive({ ...paid, target: at("stripe") }))).toBe("accepted");
    expect(runs.map((run) => run.split(" ")[0])).toEqual(["issues.closed", "invoice.paid"]);
    expect(runs[1]).toBe("invoice.paid event:evt_1PaidInvoice");
  });
});

describe("properties of keys and types made with unsigned headers", () => {
  // Header text an attacker may send: the senders' own names, their pieces around a dot, and anything else.
  const word = fc.constantFrom("issues", "opened", "closed", "pull_request", "orders/paid", "orders/create");
  const headerText = fc.oneof(
    word,
    fc.tuple(word, fc.constantFrom(".", ". ", " .", "/", ""), word).map(([a, dot, b]) => `${a}${dot}${b}`),
    fc.constantFrom("", " ", ".", "issues.", ".opened", "ISSUES", "evt_1PaidInvoice"),
    fc.string({ maxLength: 20 }),
  );
  /** `value` itself, `value` around a dot, or any header text. */
  const near = (value: string) =>
    fc.oneof(
      fc.constant(value),
      headerText.map((text) => `${value}.${text}`),
      headerText.map((text) => `${text}.${value}`),
      headerText,
    );

  it("property: GitHub's `issues.opened` handlers run only for X-GitHub-Event `issues` with the action `opened`", async () => {
    await fc.assert(
      fc.asyncProperty(near("issues"), near("opened"), async (name, action) => {
        const ran: string[] = [];
        const receiver = createReceiver({ scheme: GITHUB, secret: GITHUB_SECRET, logger: quietLogger })
          .on("issues", () => {
            ran.push("issues");
          })
          .on("issues.opened", () => {
            ran.push("issues.opened");
          });
        const delivery = signedBy(GITHUB, GITHUB_SECRET, { action, issue: {} }, { "x-github-event": name });
        const result = await receiver.receive(delivery);
        expect(bodyOf(result).error?.code).not.toBe("internal_error");
        const issues = name.trim() === "issues";
        expect(ran).toEqual(issues ? (action === "opened" ? ["issues", "issues.opened"] : ["issues"]) : []);
      }),
      { numRuns: 300 },
    );
  });

  it("property: a GitHub capture runs at most once, whatever X-GitHub-Delivery and X-GitHub-Event it is sent with", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(headerText, headerText), { minLength: 1, maxLength: 6 }), async (sends) => {
        const { send, runs } = receiverOn(GITHUB, GITHUB_SECRET);
        for (const [id, name] of sends) await send(issueClosed({ "x-github-delivery": id, "x-github-event": name }));
        expect(runs.length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 200 },
    );
  });

  it("property: a Shopify capture runs once per topic it is sent under, whatever its X-Shopify-Webhook-Id", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(headerText, headerText), { minLength: 1, maxLength: 6 }), async (sends) => {
        const { send, runs } = receiverOn(SHOPIFY, SHOPIFY_SECRET);
        const topics = new Set<string>();
        for (const [id, topic] of sends) {
          const result = await send(orderPaid({ "x-shopify-webhook-id": id, "x-shopify-topic": topic }));
          const fresh = topic.trim() !== "" && !topics.has(topic.trim());
          expect(result).toBe(fresh ? "accepted" : topic.trim() === "" ? "missing_header" : "duplicate");
          if (fresh) topics.add(topic.trim());
        }
        expect(runs).toEqual([...topics]);
      }),
      { numRuns: 200 },
    );
  });

  it("property: no GitHub or Shopify capture, whatever its headers, suppresses a Stripe event on a shared key space", async () => {
    await fc.assert(
      fc.asyncProperty(headerText, headerText, async (id, type) => {
        const runs: string[] = [];
        const { receiver, at } = oneKeySpace();
        receiver.onAny((_event, context) => {
          runs.push(context.type);
        });
        const stripeId = id.trim() || "evt_1";
        const headers = { "x-github-delivery": id, "x-shopify-webhook-id": id };
        await receiver.receive({
          ...issueClosed({ ...headers, "x-github-event": type || "issues" }),
          target: at("github"),
        });
        await receiver.receive({ ...orderPaid({ ...headers, "x-shopify-topic": type || "x" }), target: at("shopify") });
        const body = JSON.stringify({ id: stripeId, type: "invoice.paid" });
        const paid = { rawBody: encoder.encode(body), headers: stripe().sign(body, STRIPE_SECRET) };
        expect(answered(await receiver.receive({ ...paid, target: at("stripe") }))).toBe("accepted");
        expect(runs.at(-1)).toBe("invoice.paid");
      }),
      { numRuns: 200 },
    );
  });
});
