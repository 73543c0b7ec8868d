import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createReceiver, type SecretResolver, SIGNATURE_HEADER, sign } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";

// Accounts `a` and `b` were set up with one secret; the lookup ignores case and surrounding whitespace.
const SHARED = "whsec_shared";
const ACCOUNTS: Record<string, { id: string; secret: string }> = {
  a: { id: "secret_1", secret: SHARED },
  b: { id: "secret_1", secret: SHARED },
  c: { id: "secret_2", secret: "whsec_c" },
};
// The paths a captured delivery to /webhooks/a is replayed to: every one finds a secret that verifies it.
const REPLAYED_TO = ["a", "b", "A", "a%2520", "a%20"];

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((done) => server?.close(done));
});

async function receiverAt(resolver: SecretResolver) {
  let runs = 0;
  const receiver = createReceiver({ secret: resolver, logger: { error() {}, warn() {} } }).onAny(() => {
    runs++;
  });
  server = createServer(express().post("/webhooks/:account", webhookMiddleware(receiver))).listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  const post = async (path: string, body: string, signature: string) => {
    const response = await fetch(`${url}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signature },
      body,
    });
    return (await response.json()) as { received?: boolean; duplicate?: boolean; error?: { code: string } };
  };
  return { post, runs: () => runs };
}

const lookup = (account: string | undefined) =>
  ACCOUNTS[
    decodeURIComponent(account ?? "")
      .trim()
      .toLowerCase()
  ];

describe("one captured delivery replayed to every endpoint that shares its secret", () => {
  const body = JSON.stringify({ type: "message.sent", id: "evt_captured" });
  const signature = sign(body, SHARED);

  it("runs once per endpoint label when the dedup key is scoped by a label taken from the path", async () => {
    const { post, runs } = await receiverAt(({ params }) => {
      const found = lookup(params.account);
      return found && { secret: found.secret, endpoint: params.account };
    });
    for (const path of REPLAYED_TO) expect((await post(path, body, signature)).received).toBe(true);
    expect(runs()).toBe(REPLAYED_TO.length);
  });

  it("runs once in all when the resolver gives the endpoints sharing the secret one dedupScope", async () => {
    const { post, runs } = await receiverAt(({ params }) => {
      const found = lookup(params.account);
      return found && { secret: found.secret, endpoint: params.account, dedupScope: found.id };
    });
    const answers = [];
    for (const path of REPLAYED_TO) answers.push(await post(path, body, signature));
    expect(answers).toEqual([
      { received: true },
      ...REPLAYED_TO.slice(1).map(() => ({ received: true, duplicate: true })),
    ]);
    expect(runs()).toBe(1);
    // An endpoint with a secret of its own still gets its own events with the same id.
    expect(await post("c", body, sign(body, "whsec_c"))).toEqual({ received: true });
    expect(runs()).toBe(2);
  });
});
