import nodeCrypto from "node:crypto";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { createReceiver, WebhookVerificationError } from "../../src/entries";
import { gitlab, postmark, type Scheme } from "../../src/entries/schemes";

const NUM_RUNS = 100;
const SCHEMES: readonly [Scheme, string][] = [
  [gitlab(), "gitlab-secret-token"],
  [postmark(), "hooks:correct horse battery staple"],
];

async function codeOf(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    expect(error.status).toBe(400);
    return error.code;
  }
}

describe.each(SCHEMES.map(([scheme, secret]) => ({ name: scheme.name, scheme, secret })))(
  "$name (a shared token)",
  ({ scheme, secret }) => {
    it("accepts its token with any body, sync and async, and says which secret of a rotation it was", async () => {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 256 }), async (body) => {
          const headers = scheme.sign(body, secret);
          expect(scheme.verify(body, headers, secret).secretIndex).toBe(0);
          expect((await scheme.verifyAsync(body, headers, ["x:other", secret])).secretIndex).toBe(1);
        }),
        { numRuns: NUM_RUNS },
      );
    });

    it("refuses any other token with signature_mismatch, sync and async", async () => {
      await fc.assert(
        // A suffix of blanks alone is no other token: HTTP trims a header's value, and so does the scheme.
        fc.asyncProperty(
          fc.string({ minLength: 1 }).filter((suffix) => suffix.trim() !== ""),
          async (suffix) => {
            const headers = scheme.sign("{}", `${secret}${suffix}`);
            expect(await codeOf(() => scheme.verify("{}", headers, secret))).toBe("signature_mismatch");
            expect(await codeOf(() => scheme.verifyAsync("{}", headers, secret))).toBe("signature_mismatch");
          },
        ),
        { numRuns: NUM_RUNS },
      );
    });

    it("answers any value of its header with a typed 400 or its token's verdict, never a crash, never the secret", async () => {
      await fc.assert(
        fc.asyncProperty(fc.string(), async (value) => {
          const headers = { [scheme.signatureHeader]: value };
          for (const run of [
            () => scheme.verify("{}", headers, secret),
            () => scheme.verifyAsync("{}", headers, secret),
          ]) {
            try {
              await run();
              expect(value.trim()).not.toBe("");
            } catch (error) {
              expect(error).toBeInstanceOf(WebhookVerificationError);
              expect((error as Error).message).not.toContain(secret);
            }
          }
        }),
        { numRuns: NUM_RUNS },
      );
    });

    it("never makes the token a dedup key: deliveries without an id are keyed by their body", async () => {
      const keys: string[] = [];
      const receiver = createReceiver({ scheme, secret }).onAny((_event, ctx) => {
        keys.push(ctx.deliveryKey);
      });
      for (const n of [1, 2, 1]) {
        const body = JSON.stringify({ object_kind: "push", RecordType: "Delivery", n });
        const { "x-gitlab-event-uuid": _, ...headers } = scheme.sign(body, secret);
        await receiver.receive({ rawBody: Buffer.from(body), headers });
      }
      expect(keys).toHaveLength(2);
      for (const key of keys) expect(key).not.toContain(secret);
    });

    it("takes no ed25519 key as its token", () => {
      expect(() => scheme.secretKind("whpk_AAAA")).toThrow(TypeError);
      expect(scheme.secretKind(secret)).toBe("token");
    });
  },
);

describe("gitlab", () => {
  it("types <object_kind>.<action> from words only, and dedups by X-Gitlab-Event-UUID", () => {
    const event = { object_kind: "merge_request", object_attributes: { action: "merge" } };
    expect(gitlab().typeOf(event, {})).toBe("merge_request.merge");
    expect(gitlab().typeOf({ ...event, object_attributes: { action: "merge.evil" } }, {})).toBe("merge_request");
    expect(gitlab().typeOf({ object_kind: "Merge Request" }, {})).toBeUndefined();
    expect(gitlab().idOf(event, new Uint8Array(), { "x-gitlab-event-uuid": "a1b2" })).toBe("gitlab:a1b2");
  });
});

describe("a gitlab delivery in the Receiver", () => {
  it("is keyed by X-Gitlab-Event-UUID without hashing its body; one without the header, by the body's SHA-256", async () => {
    const secret = "gitlab-secret-token";
    const keys: string[] = [];
    const receiver = createReceiver({ scheme: gitlab(), secret }).on("push", (_event, ctx) => {
      keys.push(ctx.deliveryKey);
    });
    const body = JSON.stringify({ object_kind: "push", pad: "x".repeat(4096) });
    const sha256 = nodeCrypto.createHash("sha256").update(body).digest("hex");
    expect(process.getBuiltinModule("node:crypto")).toBe(nodeCrypto);
    // The module the Receiver finds node:crypto in, counting the hashes made through it.
    const hashed: string[] = [];
    const realHash = nodeCrypto.createHash;
    const createHash = vi.spyOn(nodeCrypto, "createHash").mockImplementation((algorithm, options) => {
      hashed.push(algorithm);
      return realHash(algorithm, options);
    });
    try {
      const { "x-gitlab-event-uuid": _, ...withoutId } = gitlab().sign(body, secret, { id: "uuid-1" });
      const withId = gitlab().sign(body, secret, { id: "uuid-1" });
      expect((await receiver.receive({ rawBody: Buffer.from(body), headers: withId })).status).toBe(200);
      expect(hashed).toEqual([]);
      expect((await receiver.receive({ rawBody: Buffer.from(body), headers: withoutId })).status).toBe(200);
      expect(hashed).toEqual(["sha256"]);
    } finally {
      createHash.mockRestore();
    }
    expect(keys).toEqual(["event:gitlab:uuid-1", `signature:${sha256}`]);
  });
});

describe("postmark", () => {
  it("answers malformed_header for what is not Basic credentials", async () => {
    for (const value of ["Bearer abc", "Basic", "Basic !!!!", `Basic ${btoa("no colon")}`, `Basic ${btoa("a:b")}x`]) {
      const headers = { authorization: value };
      expect(await codeOf(() => postmark().verify("{}", headers, "a:b"))).toBe("malformed_header");
    }
    expect(
      await codeOf(() => postmark().verify("{}", { authorization: `basic ${btoa("a:b")}` }, "a:b")),
    ).toBeUndefined();
  });

  it("refuses a secret that is not user:password", () => {
    expect(() => postmark().secretKind("just-a-password")).toThrow(TypeError);
  });
});
