import { createReceiver, type DeliveryContext, type SecretRequest } from "@tidings/core";
import { headerValue } from "@tidings/core/adapter";
import { afterEach, describe, expect, it } from "vitest";
import { delivery, eventBody } from "./deliveries";
import type { RunningApp } from "./target";
import { ALL_TARGETS } from "./targets";

const SECRETS: Record<string, string> = { acct_a: "whsec_route_a", "acct b": "whsec_route_b" };

/** A resolver as a multi-endpoint app writes it: the account from the route's params, and what it was asked. */
function byAccount(asked: SecretRequest[]) {
  return (request: SecretRequest) => {
    asked.push(request);
    const account = request.params.account;
    const secret = account === undefined ? undefined : SECRETS[account];
    return secret === undefined ? undefined : { secret, endpoint: account };
  };
}

const running: RunningApp[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.close()));
});

const mountable = ALL_TARGETS.filter((target) => target.paramRoute);

// A target added without a paramRoute fails here rather than going unchecked.
it("every adapter target can mount a parameterised route", () => {
  expect(ALL_TARGETS.filter((target) => !target.paramRoute).map((target) => target.name)).toEqual([]);
});

describe.each(mountable.map((target) => [target.name, target] as const))("%s on a route with params", (_, target) => {
  const paramRoute = target.paramRoute as NonNullable<typeof target.paramRoute>;

  async function start() {
    const asked: SecretRequest[] = [];
    const contexts: DeliveryContext[] = [];
    // The unknown account's warning is expected here; errors still reach the console.
    const logger = { error: console.error, warn() {} };
    const receiver = createReceiver({ secret: byAccount(asked), logger }).onAny((_event, context) => {
      contexts.push(context);
    });
    const app = await paramRoute.start(receiver);
    running.push(app);
    return { app, asked, contexts };
  }

  it("tells the resolver the account, path and route, and the handler the endpoint", async () => {
    const { app, asked, contexts } = await start();
    const sent = { ...delivery(eventBody(), { secret: "whsec_route_a" }), path: "/webhooks/acct_a?source=test" };
    const answer = await app.send(sent);
    expect(answer.status, answer.body).toBe(200);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ path: "/webhooks/acct_a", params: { account: "acct_a" } });
    expect(asked[0]?.route).toBe(paramRoute.route);
    expect(headerValue(asked[0]?.headers ?? {}, "service-signature")).toBe(sent.headers["service-signature"]);
    expect(contexts.map((context) => context.endpoint)).toEqual(["acct_a"]);
  });

  it("hands over the param decoded, and verifies each account with its own secret only", async () => {
    const { app, asked, contexts } = await start();
    const toB = (secret: string) => app.send({ ...delivery(eventBody(), { secret }), path: "/webhooks/acct%20b" });
    expect((await toB("whsec_route_b")).status).toBe(200);
    expect(asked[0]?.params.account).toBe("acct b");
    expect(contexts.map((context) => context.endpoint)).toEqual(["acct b"]);
    const crossed = await toB("whsec_route_a");
    expect([crossed.status, JSON.parse(crossed.body).error.code]).toEqual([400, "signature_mismatch"]);
    const unknown = await app.send({ ...delivery(eventBody()), path: "/webhooks/acct_nobody" });
    expect([unknown.status, JSON.parse(unknown.body).error.code]).toEqual([404, "unknown_endpoint"]);
  });
});
