import * as nodeCrypto from "node:crypto";
import { createHash, createHmac, generateKeyPairSync, randomBytes } from "node:crypto";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createReceiver, WebhookVerificationError } from "../../src/entries";
import {
  adyen,
  discord,
  discordPublicKey,
  github,
  mailgun,
  qstash,
  type Scheme,
  sendgrid,
  slack,
  telnyx,
  twitch,
  vonage,
  zoom,
} from "../../src/entries/schemes";

const NOW = 1_800_000_000;
const NUM_RUNS = 100;
const url = "https://hooks.example.com/in?x=1";
const at = { now: () => NOW * 1000, request: { method: "POST", url } };

function ed25519Pair() {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const seed = privateKey.export({ format: "der", type: "pkcs8" }).subarray(16);
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(12);
  return { seed, raw };
}
const discordKey = (() => {
  const seed = ed25519Pair().seed.toString("hex");
  return { signing: seed + discordPublicKey(seed), verifying: discordPublicKey(seed) };
})();
const telnyxKey = (() => {
  const { seed, raw } = ed25519Pair();
  return { signing: Buffer.concat([seed, raw]).toString("base64"), verifying: raw.toString("base64") };
})();
const p256 = (() => {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    signing: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
    verifying: publicKey.export({ format: "der", type: "spki" }).toString("base64"),
    pem: publicKey.export({ format: "pem", type: "spki" }).toString(),
  };
})();
const ed25519Spki = generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" }).toString("base64");

/** Each header-signed scheme of this family: the secret it signs with, the one it verifies with, another of that kind. */
const SCHEMES: readonly { scheme: Scheme; signing: string; verifying: string; other: string }[] = [
  { scheme: discord(), ...discordKey, other: discordPublicKey(randomBytes(32).toString("hex")) },
  { scheme: telnyx(), ...telnyxKey, other: ed25519Pair().raw.toString("base64") },
  {
    scheme: sendgrid(),
    ...p256,
    other: generateKeyPairSync("ec", { namedCurve: "P-256" })
      .publicKey.export({ format: "der", type: "spki" })
      .toString("base64"),
  },
  { scheme: qstash(), signing: "sig_current", verifying: "sig_current", other: "sig_next" },
  { scheme: vonage(), signing: "vonage secret", verifying: "vonage secret", other: "other" },
  { scheme: zoom(), signing: "zoom token", verifying: "zoom token", other: "other" },
  { scheme: twitch(), signing: "twitch secret", verifying: "twitch secret", other: "other secret" },
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

describe.each(SCHEMES.map((entry) => ({ name: entry.scheme.name, ...entry })))(
  "$name",
  ({ name, scheme, signing, verifying, other }) => {
    const sign = (body: Uint8Array | string, timestamp = NOW) => scheme.sign(body, signing, { timestamp, url });

    it(`${name}: verifies every body it signed, sync and async, within the window`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), fc.integer({ min: -299, max: 0 }), async (body, skew) => {
          const headers = sign(body, NOW + skew);
          expect(scheme.verify(body, headers, verifying, at).secretIndex).toBe(0);
          expect((await scheme.verifyAsync(body, headers, [other, verifying], at)).secretIndex).toBe(1);
        }),
        { numRuns: NUM_RUNS },
      );
    });

    it(`${name}: refuses any change to the signed body with signature_mismatch`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uint8Array({ minLength: 1, maxLength: 256 }),
          fc.nat(),
          fc.integer({ min: 1, max: 255 }),
          async (body, index, flip) => {
            const headers = sign(body);
            const changed = body.slice();
            changed[index % changed.length] = (changed[index % changed.length] as number) ^ flip;
            expect(await codeOf(() => scheme.verify(changed, headers, verifying, at))).toBe("signature_mismatch");
            expect(await codeOf(() => scheme.verifyAsync(changed, headers, verifying, at))).toBe("signature_mismatch");
          },
        ),
        { numRuns: NUM_RUNS },
      );
    });

    it(`${name}: any value of any header it reads is a typed 400, never accepted or crashed on`, async () => {
      const base = sign("{}");
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...Object.keys(base)),
          fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9+/=._\- ]*$/), fc.constant("x".repeat(9000))),
          async (header, value) => {
            fc.pre(value !== base[header]);
            const headers = { ...base, [header]: value };
            for (const run of [
              () => scheme.verify("{}", headers, verifying, at),
              () => scheme.verifyAsync("{}", headers, verifying, at),
            ]) {
              try {
                await run();
                // Only a header the signature does not cover may change (QStash's message id, Twitch's message type).
                expect(["upstash-message-id", "twitch-eventsub-message-type"]).toContain(header);
              } catch (error) {
                expect(error).toBeInstanceOf(WebhookVerificationError);
                expect((error as WebhookVerificationError).status).toBe(400);
              }
            }
          },
        ),
        { numRuns: NUM_RUNS },
      );
    });
  },
);

describe("secrets are bound to what they verify", () => {
  const KEYS = [p256.verifying, p256.pem, ed25519Spki, `whpk_${ed25519Pair().raw.toString("base64")}`];

  it("a public key given to an HMAC scheme is refused at createReceiver with a TypeError", () => {
    for (const scheme of [github(), slack(), zoom(), twitch(), vonage(), qstash(), mailgun()]) {
      for (const key of KEYS)
        expect(() => createReceiver({ scheme, secret: key }), `${scheme.name} ${key}`).toThrow(TypeError);
    }
  });

  it("an HMAC secret (or a private key) given to a public-key scheme is refused at createReceiver", () => {
    for (const [scheme, secrets] of [
      [
        discord(),
        ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "a shared secret", discordKey.signing, telnyxKey.verifying],
      ],
      [
        telnyx(),
        ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "a shared secret", telnyxKey.signing, discordKey.verifying],
      ],
      [sendgrid(), ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "a shared secret", p256.signing, ed25519Spki]],
      [adyen(), ["not hex", p256.verifying]],
    ] as const) {
      for (const secret of secrets)
        expect(() => createReceiver({ scheme, secret }), `${scheme.name} ${secret}`).toThrow(TypeError);
    }
    expect(sendgrid().secretKind(p256.pem)).toBe("ecdsa-p256");
    expect([discord().secretKind(discordKey.verifying), telnyx().secretKind(telnyxKey.verifying)]).toEqual([
      "ed25519",
      "ed25519",
    ]);
  });
});

/** node:crypto as it is, counting the public-key checks (`verify`) made through it. */
function countingCrypto() {
  const counted = { verifications: 0 };
  const crypto = new Proxy(nodeCrypto, {
    get(target, key) {
      if (key !== "verify") return Reflect.get(target, key);
      return (...args: Parameters<typeof nodeCrypto.verify>) => {
        counted.verifications++;
        return nodeCrypto.verify(...args);
      };
    },
  }) as typeof nodeCrypto;
  return { crypto, counted };
}

describe("a forged delivery to an endpoint holding many keys", () => {
  afterEach(() => vi.restoreAllMocks());
  const body = Buffer.from(JSON.stringify({ pad: "x".repeat(64 * 1024) }));
  const forged: Record<string, Record<string, string>> = {
    discord: { "x-signature-ed25519": "ab".repeat(64), "x-signature-timestamp": String(NOW) },
    telnyx: {
      "telnyx-signature-ed25519": `${`${randomBytes(63).toString("base64")}AA==`.slice(0, 86)}==`,
      "telnyx-timestamp": String(NOW),
    },
    sendgrid: {
      "x-twilio-email-event-webhook-signature": nodeCrypto
        .sign(
          "sha256",
          Buffer.from("other"),
          nodeCrypto.createPrivateKey({ key: Buffer.from(p256.signing, "base64"), format: "der", type: "pkcs8" }),
        )
        .toString("base64"),
      "x-twilio-email-event-webhook-timestamp": String(NOW),
    },
  };
  const keysOf: Record<string, () => string> = {
    discord: () => discordPublicKey(randomBytes(32).toString("hex")),
    telnyx: () => ed25519Pair().raw.toString("base64"),
    sendgrid: () =>
      generateKeyPairSync("ec", { namedCurve: "P-256" })
        .publicKey.export({ format: "der", type: "spki" })
        .toString("base64"),
  };

  it.each([discord(), telnyx(), sendgrid()])(
    "$name: costs at most 4 checks with node:crypto and with Web Crypto",
    async (scheme) => {
      const secrets = Array.from({ length: 10 }, keysOf[scheme.name] as () => string);
      const delivery = scheme.read(body, forged[scheme.name] as Record<string, string>, secrets, 300);
      const matchers = delivery.content.matchers;
      if (!matchers) throw new Error("a public-key scheme has matchers of its own");
      const { crypto, counted } = countingCrypto();
      expect(matchers.node(crypto, delivery.content, secrets)).toBeUndefined();
      expect(counted.verifications).toBe(4);
      const verify = vi.spyOn(globalThis.crypto.subtle, "verify");
      expect(await matchers.web(delivery.content, secrets)).toBeUndefined();
      expect(verify).toHaveBeenCalledTimes(4);
    },
  );
});

describe("JWTs", () => {
  const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const jwt = (claims: object, secret: string, alg = "HS256") => {
    const input = `${b64url({ alg, typ: "JWT" })}.${b64url(claims)}`;
    return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`;
  };
  const body = '{"a":1}';
  const hash = createHash("sha256").update(body);
  const qstashClaims = {
    iss: "Upstash",
    sub: url,
    nbf: NOW,
    iat: NOW,
    exp: NOW + 300,
    body: hash.copy().digest("base64url"),
  };
  const vonageClaims = { iat: NOW, payload_hash: hash.copy().digest("hex") };
  const qstashCode = (token: string) => codeOf(() => qstash().verify(body, { "upstash-signature": token }, "k", at));
  const vonageCode = (token: string) =>
    codeOf(() => vonage().verify(body, { authorization: `Bearer ${token}` }, "k", at));

  it("verify as signed, and refuse alg none, HS512, RS256 before any HMAC", async () => {
    expect(await qstashCode(jwt(qstashClaims, "k"))).toBeUndefined();
    expect(await vonageCode(jwt(vonageClaims, "k"))).toBeUndefined();
    for (const alg of ["none", "HS512", "RS256", "hs256"]) {
      expect(await qstashCode(jwt(qstashClaims, "k", alg))).toBe("no_supported_signature");
      expect(await vonageCode(jwt(vonageClaims, "k", alg))).toBe("no_supported_signature");
    }
    expect(await qstashCode(`${b64url({ alg: "none" })}.${b64url(qstashClaims)}.`)).toBe("malformed_header");
  });

  it("refuse a bad body hash, an expired token, a wrong issuer or subject with typed codes", async () => {
    const otherHash = createHash("sha256").update("{}");
    expect(await qstashCode(jwt({ ...qstashClaims, body: otherHash.copy().digest("base64url") }, "k"))).toBe(
      "signature_mismatch",
    );
    expect(await vonageCode(jwt({ ...vonageClaims, payload_hash: otherHash.copy().digest("hex") }, "k"))).toBe(
      "signature_mismatch",
    );
    expect(await qstashCode(jwt({ ...qstashClaims, nbf: NOW - 200, exp: NOW - 1 }, "k"))).toBe("timestamp_too_old");
    expect(await vonageCode(jwt({ ...vonageClaims, iat: NOW - 301 }, "k"))).toBe("timestamp_too_old");
    expect(await qstashCode(jwt({ ...qstashClaims, iss: "upstash" }, "k"))).toBe("signature_mismatch");
    expect(await qstashCode(jwt({ ...qstashClaims, sub: "https://hooks.example.com/in?x=2" }, "k"))).toBe(
      "signature_mismatch",
    );
    expect(await qstashCode(jwt({ ...qstashClaims, exp: NOW - 1 }, "k"))).toBe("malformed_header");
  });

  it("any change to a signed token's characters is refused with a typed 400", async () => {
    const token = jwt(qstashClaims, "k");
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.constantFrom(..."AQgw-_.=+/ a"), async (index, char) => {
        const at0 = index % token.length;
        fc.pre(token[at0] !== char);
        const changed = token.slice(0, at0) + char + token.slice(at0 + 1);
        expect(await qstashCode(changed)).toBeDefined();
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe("body-signed schemes", () => {
  const json = { "content-type": "application/json" };
  const mailgunBody = (timestamp: string, token: string, key = "mailgun key") =>
    JSON.stringify({
      signature: {
        timestamp,
        token,
        signature: createHmac("sha256", key)
          .update(timestamp + token)
          .digest("hex"),
      },
      "event-data": { event: "delivered", id: "e1" },
    });

  it("Mailgun: verifies every token it signed, and refuses any change to the signed timestamp or token", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[A-Za-z0-9]{1,64}$/),
        fc.integer({ min: 0, max: 299 }),
        async (token, age) => {
          const timestamp = String(NOW - age);
          expect(mailgun().verify(mailgunBody(timestamp, token), json, "mailgun key", at).secretIndex).toBe(0);
          const parsed = JSON.parse(mailgunBody(timestamp, token));
          parsed.signature.token = `${token}0`;
          expect(await codeOf(() => mailgun().verifyAsync(JSON.stringify(parsed), json, "mailgun key", at))).toBe(
            "signature_mismatch",
          );
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("Mailgun and Adyen: any value of the body's signature fields is a typed 400, never accepted or crashed on", async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.anything(), async (signature, hmac) => {
        const mail = JSON.stringify({ signature, "event-data": { event: "x" } });
        expect(await codeOf(() => mailgun().verify(mail, json, "mailgun key", at))).toBeDefined();
        const item = {
          pspReference: "p",
          eventCode: "E",
          amount: { value: 1, currency: "EUR" },
          additionalData: { hmacSignature: hmac },
        };
        const notification = JSON.stringify({ notificationItems: [{ NotificationRequestItem: item }] });
        expect(await codeOf(() => adyen().verifyAsync(notification, json, "00ff", at))).toBeDefined();
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
