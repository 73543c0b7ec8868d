import { createHmac } from "node:crypto";
import { verifySlackRequest } from "@slack/bolt";
import { createReceiver } from "@tidings/core";
import { slack } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { accepted, nowSeconds } from "./accepted";
import { describeSender } from "./harness";

const SECRET = "8f742231b10e8888abcd99yyyzzz85a5";

// Slack's documented algorithm (the SDK verifies, it does not sign): "v0:" + timestamp + ":" + body, HMAC-SHA256 keyed
// by the signing secret, hex, sent as v0=<hex>.
function slackSign(body: string, secret: string, timestamp: number) {
  const hex = createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex");
  return { "x-slack-request-timestamp": String(timestamp), "x-slack-signature": `v0=${hex}` };
}

describeSender("Slack", {
  scheme: slack(),
  secret: SECRET,
  otherSecret: "rotated0slack0signing0secret0000",
  body: JSON.stringify({
    type: "event_callback",
    event_id: "Ev08MFMKH6",
    event: { type: "app_mention", user: "U061F7AUR", text: "héllo ✓ <@U0LAN0Z89>" },
  }),
  type: "app_mention",
  timed: true,
  sign: slackSign,
  accepts: (body, headers, secret) =>
    accepted(() =>
      verifySlackRequest({
        signingSecret: secret,
        body,
        headers: {
          "x-slack-signature": headers["x-slack-signature"] ?? "",
          "x-slack-request-timestamp": Number(headers["x-slack-request-timestamp"]),
        },
      }),
    ),
});

describe("Slack's url_verification", () => {
  it("is answered with its challenge once verified, and runs no handler", async () => {
    const seen: string[] = [];
    const receiver = createReceiver({ scheme: slack(), secret: SECRET }).onAny((_event, ctx) => {
      seen.push(ctx.type);
    });
    const body = JSON.stringify({
      type: "url_verification",
      token: "t",
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
    });
    const result = await receiver.receive({
      rawBody: Buffer.from(body),
      headers: slackSign(body, SECRET, nowSeconds()),
    });
    expect(result.status).toBe(200);
    expect(JSON.parse(String(result.body))).toEqual({
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
    });
    expect(seen).toEqual([]);
  });
});
