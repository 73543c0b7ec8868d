import { workos } from "@tidings/core/schemes";
import { WorkOS } from "@workos-inc/node";
import { describe, expect, it } from "vitest";
import { codeOf, describeSender } from "./harness";

const secret = "workos-webhook-secret-kq8Zr2";
const body = JSON.stringify({
  id: "event_01HV8X2ACMA2GZ3HE1XPMBQZ0F",
  event: "dsync.user.created",
  created_at: "2026-01-01T00:00:00.000Z",
  data: { id: "directory_user_01E1X7B89OH02C1", email: "ada@example.com", state: "active" },
});
// No request is sent: webhooks need no API key, but the client wants one.
const { webhooks } = new WorkOS("sk_test_unused");

async function accepts(payload: string, headers: Record<string, string>, key: string): Promise<boolean> {
  try {
    // The raw body, as the SDK advises: a parsed object is signed as JSON.stringify writes it.
    await webhooks.constructEvent({ payload, sigHeader: headers["workos-signature"] as string, secret: key });
    return true;
  } catch {
    return false;
  }
}

describeSender("WorkOS", {
  scheme: workos(),
  secret,
  otherSecret: "workos-webhook-secret-other",
  body,
  type: "dsync.user.created",
  timed: true,
  // The SDK's own signer: the header's time is milliseconds.
  sign: async (payload, key, timestamp) => {
    const t = timestamp * 1000;
    return { "workos-signature": `t=${t}, v1=${await webhooks.computeSignature(t, payload, key)}` };
  },
  accepts,
});

describe("WorkOS, beyond the harness", () => {
  it("reads the time as milliseconds: a delivery signed 10 minutes ago is old, one signed now is not", async () => {
    const now = Date.now();
    const old = now - 600_000;
    const header = (t: number) => ({ "workos-signature": `t=${t}, v1=${"0".repeat(64)}` });
    const signed = async (t: number) => ({
      "workos-signature": `t=${t}, v1=${await webhooks.computeSignature(t, body, secret)}`,
    });
    expect(await codeOf(async () => workos().verify(body, await signed(old), secret))).toBe("timestamp_too_old");
    expect(workos().verify(body, await signed(now), secret).timestamp).toBe(Math.floor(now / 1000));
    expect(await codeOf(() => workos().verify(body, header(now), secret))).toBe("signature_mismatch");
  });

  it("refuses an API key where the endpoint's webhook secret goes", () => {
    expect(() => workos().secretKind("sk_live_a1b2c3")).toThrow(TypeError);
  });
});
