import { WebhookHandler } from "@liveblocks/node";
import { liveblocks } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { accepted } from "./accepted";
import { describeSender } from "./harness";
import { standardSign } from "./standard-signer";

describeSender("Liveblocks", {
  scheme: liveblocks(),
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  otherSecret: "whsec_c2Vjb25kIHNlY3JldCBmb3Igcm90YXRpb24=",
  body: JSON.stringify({
    type: "userEntered",
    data: {
      projectId: "605a50b01a36d5ea7a2e9104",
      roomId: "héllo-room",
      connectionId: 7,
      userId: "user-1",
      userInfo: null,
      enteredAt: "2026-04-01T12:00:00.000Z",
      numActiveUsers: 1,
    },
  }),
  type: "userEntered",
  timed: true,
  sign: (body, secret, timestamp) => standardSign("webhook", secret, body, timestamp),
  accepts: (body, headers, secret) =>
    accepted(() => new WebhookHandler(secret).verifyRequest({ headers, rawBody: body })),
});

describe("Liveblocks' secrets", () => {
  it("need their whsec_ prefix, as WebhookHandler does", () => {
    expect(() => new WebhookHandler("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")).toThrow();
    expect(() => liveblocks().secretKind("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")).toThrow(TypeError);
    expect(liveblocks().secretKind("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")).toBe("hmac");
  });
});
