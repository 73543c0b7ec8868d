import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { afterFakeTime } from "../../../test/support/wait";
import { createReceiver, type DeliveryContext, type ReceiveErrorInfo, type SecretRequest, sign } from "../src/entries";
import { bodyOf, event, quietLogger, SECRET, signed } from "./receiver-fixtures";

const SECRETS: Record<string, string[]> = { acct_a: ["whsec_a_new", "whsec_a_old"], acct_b: ["whsec_b"] };

/** A delivery to `/webhooks/<account>`, as an adapter that knows the route hands it over. */
function to(account: string, payload: unknown, secret: string) {
  const delivery = signed(payload, { secret });
  return { ...delivery, target: { path: `/webhooks/${account}`, route: "/webhooks/:account", params: { account } } };
}

function byAccount(asked: SecretRequest[] = []) {
  return (request: SecretRequest) => {
    asked.push(request);
    const account = request.params.account;
    const secret = account === undefined ? undefined : SECRETS[account];
    return secret && { secret, endpoint: account };
  };
}

describe("a secret resolver", () => {
  it("verifies each endpoint with its own secrets and tells handlers which endpoint it was", async () => {
    const asked: SecretRequest[] = [];
    const seen: DeliveryContext[] = [];
    const receiver = createReceiver({ secret: byAccount(asked) }).onAny((_event, context) => {
      seen.push(context);
    });
    expect((await receiver.receive(to("acct_a", event(), "whsec_a_old"))).status).toBe(200);
    expect((await receiver.receive(to("acct_b", event({ id: "evt_2" }), "whsec_b"))).status).toBe(200);
    expect(seen.map(({ endpoint, secretIndex }) => [endpoint, secretIndex])).toEqual([
      ["acct_a", 1],
      ["acct_b", 0],
    ]);
    expect(asked[0]).toMatchObject({
      path: "/webhooks/acct_a",
      route: "/webhooks/:account",
      params: { account: "acct_a" },
    });
    expect(asked[0]?.headers).toHaveProperty("service-signature");
    // Another endpoint's secret does not verify here.
    const crossed = await receiver.receive(to("acct_b", event({ id: "evt_3" }), "whsec_a_new"));
    expect(bodyOf(crossed).error?.code).toBe("signature_mismatch");
  });

  it("scopes dedup by endpoint: the same event id on two endpoints runs twice, a resend on one runs once", async () => {
    const keys: string[] = [];
    const receiver = createReceiver({ secret: async (request) => byAccount()(request) }).onAny((_event, context) => {
      keys.push(context.deliveryKey);
    });
    await receiver.receive(to("acct_a", event(), "whsec_a_new"));
    await receiver.receive(to("acct_b", event(), "whsec_b"));
    const resent = await receiver.receive(to("acct_a", event(), "whsec_a_new"));
    expect(bodyOf(resent)).toEqual({ received: true, duplicate: true });
    expect(keys).toEqual(["endpoint:acct_a:event:evt_1", "endpoint:acct_b:event:evt_1"]);
  });

  it("encodes the label in the key, so no label can take over another endpoint's keys", async () => {
    const keys: string[] = [];
    const labels = ["a:event:x", "a"];
    const receiver = createReceiver({
      secret: (request) => ({ secret: SECRET, endpoint: labels[Number(request.params.n)] }),
    }).onAny((_event, context) => {
      keys.push(context.deliveryKey);
    });
    const send = (n: number, id: string) =>
      receiver.receive({ ...signed(event({ id })), target: { path: "/", params: { n: String(n) } } });
    expect((await send(0, "evt_1")).status).toBe(200);
    expect(bodyOf(await send(1, "x:event:evt_1")).duplicate).toBeUndefined();
    expect(new Set(keys).size).toBe(2);
  });

  it("scopes dedup by the resolver's dedupScope when it gives one: endpoints in one scope dedup together", async () => {
    const keys: string[] = [];
    const scopes: Record<string, string> = { a: "shared", b: "shared", c: "own" };
    const receiver = createReceiver({
      secret: ({ params }) => ({ secret: SECRET, endpoint: params.n, dedupScope: scopes[params.n ?? ""] }),
    }).onAny((_event, context) => {
      keys.push(`${context.endpoint} ${context.deliveryKey}`);
    });
    const at = (n: string) => receiver.receive({ ...signed(event()), target: { path: `/${n}`, params: { n } } });
    expect([(await at("a")).code, (await at("b")).code, (await at("c")).code]).toEqual([
      "accepted",
      "duplicate",
      "accepted",
    ]);
    expect(keys).toEqual(["a endpoint:shared:event:evt_1", "c endpoint:own:event:evt_1"]);
    for (const dedupScope of ["", 42]) {
      const refusing = createReceiver({
        secret: () => ({ secret: SECRET, dedupScope: dedupScope as string }),
        logger: quietLogger,
      });
      expect((await refusing.receive(signed(event()))).code).toBe("secret_unavailable");
    }
  });

  it("answers 404 unknown_endpoint without checking any signature, and logs that once", async () => {
    const warned: unknown[] = [];
    const reported: ReceiveErrorInfo[] = [];
    const receiver = createReceiver({ secret: byAccount(), logger: { error() {}, warn: (line) => warned.push(line) } });
    receiver.onError((_error, info) => {
      reported.push(info);
    });
    for (const secret of ["whsec_a_new", "anything"]) {
      const result = await receiver.receive(to("acct_zzz", event(), secret));
      expect([result.status, bodyOf(result).error?.code]).toEqual([404, "unknown_endpoint"]);
    }
    expect(warned).toEqual([expect.objectContaining({ code: "unknown_endpoint", path: "/webhooks/acct_zzz" })]);
    expect(reported.map((info) => [info.code, info.status])).toEqual([
      ["unknown_endpoint", 404],
      ["unknown_endpoint", 404],
    ]);
  });

  it("answers 503 secret_unavailable, to be retried, when the resolver throws, rejects or returns no usable secret", async () => {
    const failing = [
      () => {
        throw new Error("database down");
      },
      () => Promise.reject(new Error("database down")),
      () => ({ secret: "" }),
      () => ({ secret: SECRET, endpoint: 42 as unknown as string }),
    ];
    for (const resolver of failing) {
      const receiver = createReceiver({ secret: resolver, logger: quietLogger });
      const result = await receiver.receive(signed(event()));
      expect([result.status, bodyOf(result).error?.code, result.headers["retry-after"]]).toEqual([
        503,
        "secret_unavailable",
        "5",
      ]);
    }
  });

  it("answers 503 secret_unavailable once an async resolver outlasts resolverTimeoutMs, and refuses a bad bound", async () => {
    const reported: unknown[] = [];
    const receiver = createReceiver({ secret: () => new Promise(() => {}), resolverTimeoutMs: 20 }).onError((error) => {
      reported.push(error);
    });
    const result = await afterFakeTime(20, () => receiver.receive(signed(event())));
    expect([result.status, bodyOf(result).error?.code, result.headers["retry-after"]]).toEqual([
      503,
      "secret_unavailable",
      "5",
    ]);
    expect(String(reported[0])).toContain("did not settle within 20 ms (resolverTimeoutMs)");
    for (const resolverTimeoutMs of [0, -1, 1.5, Number.NaN]) {
      expect(() => createReceiver({ secret: byAccount(), resolverTimeoutMs })).toThrow(TypeError);
    }
  });

  it("adds no turn when it answers synchronously: the handler has run when receive() returns", async () => {
    let runs = 0;
    const receiver = createReceiver({ secret: byAccount() }).onAny(() => {
      runs++;
    });
    const received = receiver.receive(to("acct_b", event(), "whsec_b"));
    expect(runs).toBe(1);
    expect((await received).status).toBe(200);
  });

  it("is asked only after the cheap header checks", async () => {
    const asked: SecretRequest[] = [];
    const receiver = createReceiver({ secret: byAccount(asked) });
    const unsigned = await receiver.receive({ rawBody: new TextEncoder().encode("{}"), headers: {} });
    const malformed = await receiver.receive({
      rawBody: new TextEncoder().encode("{}"),
      headers: { "service-signature": "t=x" },
    });
    expect([bodyOf(unsigned).error?.code, bodyOf(malformed).error?.code]).toEqual([
      "missing_header",
      "malformed_header",
    ]);
    expect(asked).toEqual([]);
  });
});

describe("secrets with a deadline (notAfter)", () => {
  const T = 1_900_000_000_000;

  function rotating() {
    const clock = { ms: T - 60_000 };
    const receiver = createReceiver({
      secret: [{ value: "whsec_old", notAfter: new Date(T) }, "whsec_new"],
      now: () => clock.ms,
      logger: { error() {}, warn() {} },
    });
    const send = (secret: string, id: string) => {
      const timestamp = Math.floor(clock.ms / 1000);
      const rawBody = new TextEncoder().encode(JSON.stringify(event({ id })));
      return receiver.receive({ rawBody, headers: { "service-signature": sign(rawBody, secret, { timestamp }) } });
    };
    return { clock, receiver, send };
  }

  it("verifies the old secret until notAfter and never after; the new one throughout; secretIndex counts both", async () => {
    const { clock, receiver, send } = rotating();
    const indexes: number[] = [];
    const mismatches: unknown[] = [];
    receiver.onAny((_event, context) => {
      indexes.push(context.secretIndex);
    });
    receiver.onError((_error, info) => {
      mismatches.push(info.details);
    });
    expect((await send("whsec_old", "evt_1")).status).toBe(200);
    expect((await send("whsec_new", "evt_2")).status).toBe(200);
    clock.ms = T;
    expect(bodyOf(await send("whsec_old", "evt_3")).error?.code).toBe("signature_mismatch");
    expect((await send("whsec_new", "evt_4")).status).toBe(200);
    expect(indexes).toEqual([0, 1, 1]);
    expect(mismatches).toEqual([{ secretsConfigured: 2, secretsExpired: 1, retiredSecretIndex: 0 }]);
  });

  it("takes notAfter as Unix ms too, and refuses a deadline that is not a time at setup", () => {
    expect(() => createReceiver({ secret: { value: "whsec_x", notAfter: T } })).not.toThrow();
    expect(() => createReceiver({ secret: { value: "whsec_x", notAfter: new Date("nope") } })).toThrow(TypeError);
    expect(() => createReceiver({ secret: { value: "", notAfter: T } })).toThrow(TypeError);
  });

  it("property: a delivery verifies exactly when its secret is configured and not past its deadline", async () => {
    const secretArb = fc.record({
      value: fc.constantFrom("whsec_1", "whsec_2", "whsec_3"),
      notAfter: fc.option(fc.integer({ min: T - 10_000, max: T + 10_000 }), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(secretArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom("whsec_1", "whsec_2", "whsec_3", "whsec_9"),
        fc.integer({ min: T - 10_000, max: T + 10_000 }),
        async (secrets, signer, nowMs) => {
          const receiver = createReceiver({
            secret: secrets,
            now: () => nowMs,
            toleranceSeconds: 60,
            logger: { error() {}, warn() {} },
          });
          const indexes: number[] = [];
          receiver.onAny((_event, context) => {
            indexes.push(context.secretIndex);
          });
          const rawBody = new TextEncoder().encode(JSON.stringify(event()));
          const header = sign(rawBody, signer, { timestamp: Math.floor(nowMs / 1000) });
          const result = await receiver.receive({ rawBody, headers: { "service-signature": header } });
          const valid = secrets.findIndex(
            (secret) => secret.value === signer && (secret.notAfter === undefined || nowMs < secret.notAfter),
          );
          expect(result.status).toBe(valid === -1 ? 400 : 200);
          expect(indexes).toEqual(valid === -1 ? [] : [valid]);
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);
});
