import { WebhookVerificationError } from "@tidings/core";
import { describe, expect, it } from "vitest";
import { SENDERS, schemeOf } from "./senders";

const BODY = JSON.stringify({ id: "evt_1", type: "invoice.paid", data: { object: { amount: 42, note: "héllo ✓" } } });

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

const now = () => Math.floor(Date.now() / 1000);

describe.each(SENDERS)("$scheme", (sender) => {
  const scheme = schemeOf(sender.scheme);

  it("verifies what the sender's own library signed, sync and async", async () => {
    const headers = await sender.sign(BODY, sender.secret, now());
    expect(scheme.verify(BODY, headers, sender.secret)).toMatchObject({ secretIndex: 0 });
    expect(await scheme.verifyAsync(Buffer.from(BODY), new Headers(headers), sender.secret)).toMatchObject({
      secretIndex: 0,
    });
  });

  it("signs what the sender's own library verifies", async () => {
    const headers = scheme.sign(BODY, sender.secret);
    expect(await sender.accepts(BODY, headers, sender.secret)).toBe(true);
    expect(await sender.accepts(`${BODY} `, headers, sender.secret)).toBe(false);
  });

  it("refuses a tampered body and a wrong secret with signature_mismatch", async () => {
    const headers = await sender.sign(BODY, sender.secret, now());
    expect(await codeOf(() => scheme.verify(`${BODY} `, headers, sender.secret))).toBe("signature_mismatch");
    expect(await codeOf(() => scheme.verifyAsync(BODY, headers, sender.otherSecret))).toBe("signature_mismatch");
  });

  it("verifies under any of several secrets (rotation) and says which", async () => {
    const headers = await sender.sign(BODY, sender.secret, now());
    expect(scheme.verify(BODY, headers, [sender.otherSecret, sender.secret]).secretIndex).toBe(1);
    expect((await scheme.verifyAsync(BODY, headers, [sender.otherSecret, sender.secret])).secretIndex).toBe(1);
  });

  it(sender.timed ? "refuses an old timestamp" : "signs no time: an old delivery still verifies", async () => {
    const old = now() - 3600;
    const headers = await sender.sign(BODY, sender.secret, old);
    if (sender.timed) {
      expect(await codeOf(() => scheme.verify(BODY, headers, sender.secret))).toBe("timestamp_too_old");
      expect(await codeOf(() => scheme.verifyAsync(BODY, headers, sender.secret))).toBe("timestamp_too_old");
      expect(await sender.accepts(BODY, scheme.sign(BODY, sender.secret, { timestamp: old }), sender.secret)).toBe(
        false,
      );
    } else {
      expect(scheme.verify(BODY, headers, sender.secret).secretIndex).toBe(0);
    }
  });

  it("answers missing_header without its signature header, and a typed 400 for a broken one", async () => {
    const headers = await sender.sign(BODY, sender.secret, now());
    const without = { ...headers };
    delete without[scheme.signatureHeader];
    expect(await codeOf(() => scheme.verify(BODY, without, sender.secret))).toBe("missing_header");
    for (const broken of ["garbage", "v1=zz", "sha256=", "t=1", ",,,", "x".repeat(9000)]) {
      const code = await codeOf(() =>
        scheme.verify(BODY, { ...headers, [scheme.signatureHeader]: broken }, sender.secret),
      );
      expect(["malformed_header", "no_supported_signature"]).toContain(code);
    }
  });
});
