import { createHmac, generateKeyPairSync } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WebhookVerificationError } from "../../src/entries";
import { clerk, liveblocks, polar, resend, type Scheme, standardWebhooks } from "../../src/entries/schemes";

const WHSEC = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const NOW = 1_800_000_000;
const at = { now: () => NOW * 1000 };

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return error.code;
  }
}

const NAMED: readonly [Scheme, string, string][] = [
  [clerk(), "svix", WHSEC],
  [resend(), "svix", WHSEC],
  [liveblocks(), "webhook", WHSEC],
  [polar(), "webhook", "polar_whs_secret"],
];

describe.each(NAMED.map(([scheme, prefix, secret]) => ({ name: scheme.name, scheme, prefix, secret })))(
  "$name",
  ({ scheme, prefix, secret }) => {
    it("reads the sender's own headers, and no other", () => {
      const headers = scheme.sign("{}", secret, { timestamp: NOW, id: "msg_1" });
      expect(Object.keys(headers).sort()).toEqual([`${prefix}-id`, `${prefix}-signature`, `${prefix}-timestamp`]);
      expect(scheme.signatureHeader).toBe(`${prefix}-signature`);
      const other = prefix === "svix" ? "webhook" : "svix";
      const renamed = Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [name.replace(prefix, other), value]),
      );
      expect(codeOf(() => scheme.verify("{}", renamed, secret, at))).toBe("missing_header");
    });

    it("reads no v1a (ed25519) signature, and takes no ed25519 key", () => {
      const { privateKey } = generateKeyPairSync("ed25519");
      const raw = privateKey.export({ format: "jwk" }).d as string;
      const secretKey = `whsk_${Buffer.from(raw, "base64url").toString("base64")}`;
      const signed = standardWebhooks().sign("{}", secretKey, { timestamp: NOW, id: "msg_1" });
      const headers = Object.fromEntries(
        Object.entries(signed).map(([name, value]) => [name.replace("webhook", prefix), value]),
      );
      expect(codeOf(() => scheme.verify("{}", headers, secret, at))).toBe("no_supported_signature");
      expect(() => scheme.secretKind(`whpk_${"A".repeat(43)}=`)).toThrow(TypeError);
    });

    it("keys dedup by its id header and types by the payload's type", () => {
      const headers = scheme.sign('{"type":"a.b"}', secret, { timestamp: NOW, id: "msg_7" });
      expect(scheme.idOf({ type: "a.b" }, new Uint8Array(), headers)).toBe("msg_7");
      expect(scheme.typeOf({ type: "a.b" }, headers)).toBe("a.b");
    });
  },
);

describe("whsec_ senders' secrets", () => {
  it("Clerk and Resend take whsec_<base64> only; Liveblocks needs the prefix", () => {
    for (const scheme of [clerk(), resend()]) {
      expect(scheme.secretKind(WHSEC)).toBe("hmac");
      expect(() => scheme.secretKind("whsec_not base64!")).toThrow(TypeError);
    }
    expect(clerk().secretKind(WHSEC.slice(6))).toBe("hmac");
    expect(() => liveblocks().secretKind(WHSEC.slice(6))).toThrow(TypeError);
  });
});

describe("polar", () => {
  const signAs = (key: Buffer, id: string, timestamp: number, body: string) =>
    `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
  const headers = (signature: string) => ({
    "webhook-id": "msg_1",
    "webhook-timestamp": String(NOW),
    "webhook-signature": signature,
  });

  it("keys any secret by its text's UTF-8 bytes, and a whsec_<base64> one by its decoding too, sync and async", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 48 }),
        fc.string({ maxLength: 64 }),
        async (key, body) => {
          const whsec = `whsec_${Buffer.from(key).toString("base64")}`;
          for (const signature of [
            signAs(Buffer.from(whsec), "msg_1", NOW, body),
            signAs(Buffer.from(key), "msg_1", NOW, body),
          ]) {
            expect(polar().verify(body, headers(signature), ["polar_whs_other", whsec], at).secretIndex).toBe(1);
            expect(
              (await polar().verifyAsync(body, headers(signature), ["polar_whs_other", whsec], at)).secretIndex,
            ).toBe(1);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it("never decodes a secret that is not whsec_", () => {
    const secret = "polar_whs_c2Vjb25k";
    const decoded = signAs(Buffer.from("c2Vjb25k", "base64"), "msg_1", NOW, "{}");
    expect(codeOf(() => polar().verify("{}", headers(decoded), secret, at))).toBe("signature_mismatch");
    expect(() => polar().secretKind("polar_oat_token")).toThrow(TypeError);
  });
});
