import { createReceiver } from "@tidings/core";
import { gitlab } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { codeOf } from "./harness";

// GitLab sends the webhook's secret token as it is, in `X-Gitlab-Token`; no GitLab SDK verifies it. The harness's
// tampering checks do not apply: a token covers no byte of the body (which is why it proves less than a signature).
const secret = "gitlab-webhook-token-5bd1";
const body = JSON.stringify({
  object_kind: "merge_request",
  event_type: "merge_request",
  user: { id: 1, username: "ada" },
  project: { id: 15, path_with_namespace: "acme/shop" },
  object_attributes: { iid: 42, title: "Fix checkout", action: "merge", state: "merged" },
});
const delivery = (token: string, uuid = "7b2d3d2a-1c6b-4f0e-9d3e-0a1b2c3d4e5f") => ({
  "x-gitlab-token": token,
  "x-gitlab-event": "Merge Request Hook",
  "x-gitlab-event-uuid": uuid,
  "x-gitlab-webhook-uuid": "2f4c1b7a-0000-4000-8000-000000000001",
});

describe("GitLab (gitlab)", () => {
  it("accepts the webhook's token, sync and async, and says which secret of a rotation it was", async () => {
    expect(gitlab().verify(body, delivery(secret), secret)).toMatchObject({ secretIndex: 0 });
    expect(await gitlab().verifyAsync(Buffer.from(body), new Headers(delivery(secret)), ["old", secret])).toMatchObject(
      {
        secretIndex: 1,
      },
    );
  });

  it("refuses another token with signature_mismatch, and no token with missing_header", async () => {
    expect(await codeOf(() => gitlab().verify(body, delivery(`${secret}x`), secret))).toBe("signature_mismatch");
    expect(await codeOf(() => gitlab().verify(body, delivery(secret.slice(1)), secret))).toBe("signature_mismatch");
    const { "x-gitlab-token": _, ...without } = delivery(secret);
    expect(await codeOf(() => gitlab().verify(body, without, secret))).toBe("missing_header");
  });

  it("is handled once through a Receiver, routed as merge_request.merge, a resend of its event UUID a duplicate", async () => {
    const seen: string[] = [];
    const receiver = createReceiver({ scheme: gitlab(), secret })
      .on("merge_request", (_event, ctx) => {
        seen.push(`family:${ctx.type}`);
      })
      .onAny((_event, ctx) => {
        seen.push(ctx.type);
      });
    const sent = { rawBody: Buffer.from(body), headers: delivery(secret) };
    expect((await receiver.receive(sent)).code).toBe("accepted");
    expect((await receiver.receive(sent)).code).toBe("duplicate");
    expect(seen).toEqual(["family:merge_request.merge", "merge_request.merge"]);
  });

  it("says plainly in its description that a token proves less than a signature", () => {
    expect(gitlab().about).toMatchObject({ dedup: { signed: false }, replay: expect.stringContaining("none") });
    expect(gitlab().about?.secret).toContain("less than a signature");
  });
});
