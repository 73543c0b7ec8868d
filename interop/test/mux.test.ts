import { createHmac } from "node:crypto";
import Mux from "@mux/mux-node";
import { mux } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { describeSender } from "./harness";

const secret = "mux-webhook-signing-secret-3f7a9c";
const body = JSON.stringify({
  type: "video.asset.ready",
  id: "3a56ac3d-33da-4366-855b-f592d898409d",
  created_at: "2026-01-01T00:00:00.000000Z",
  object: { type: "asset", id: "0201p02fGKPE7MrbC269XRD7LpcHhrmbu0002" },
  data: { id: "0201p02fGKPE7MrbC269XRD7LpcHhrmbu0002", status: "ready", duration: 23.8 },
});
// No request is sent: the client only holds the webhook secret.
const client = new Mux({ tokenId: "unused", tokenSecret: "unused", webhookSecret: secret });

async function accepts(payload: string, headers: Record<string, string>, key: string): Promise<boolean> {
  try {
    await client.webhooks.verifySignature(payload, headers, key);
    return true;
  } catch {
    return false;
  }
}

// Mux's SDK verifies only; deliveries are signed with Mux's documented algorithm.
const hex = (value: string, key: string) => createHmac("sha256", key).update(value).digest("hex");

describeSender("Mux", {
  scheme: mux(),
  secret,
  otherSecret: "mux-webhook-signing-secret-other",
  body,
  type: "video.asset.ready",
  timed: true,
  sign: (payload, key, timestamp) => ({ "mux-signature": `t=${timestamp},v1=${hex(`${timestamp}.${payload}`, key)}` }),
  accepts,
});

describe("Mux, beyond the harness", () => {
  it("unwraps what Tidings signs with the client's own secret", async () => {
    const event = await client.webhooks.unwrap(body, mux().sign(body, secret));
    expect(event).toMatchObject({ type: "video.asset.ready" });
  });

  it("verifies any v1 of several, as Mux's SDK does, and skips other versions", () => {
    const t = Math.floor(Date.now() / 1000);
    const header = `t=${t},v0=${"0".repeat(64)},v1=${hex(`${t}.${body}`, "old")},v1=${hex(`${t}.${body}`, secret)}`;
    expect(mux().verify(body, { "mux-signature": header }, secret)).toMatchObject({ secretIndex: 0 });
  });
});
