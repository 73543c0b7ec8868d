// Twitch publishes no SDK that verifies EventSub: its documented algorithm is written out here (message id +
// timestamp + body, HMAC-SHA256, `sha256=<hex>`).
import { createHmac } from "node:crypto";
import { createReceiver } from "@tidings/core";
import { twitch } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { codeOf, describeSender } from "./harness";

const secret = "s3cre7-of-ten-to-a-hundred";
const body = JSON.stringify({
  subscription: { id: "f1c2a387-161a-49f9-a165-0f21d7a4e1c4", type: "channel.follow", version: "2", status: "enabled" },
  event: { user_id: "1234", user_name: "cool_user", broadcaster_user_id: "1337" },
});

function twitchSigns(payload: string, key: string, seconds: number, type = "notification") {
  const id = "befa7b53-d79d-478f-86b9-120f112b044e";
  const timestamp = new Date(seconds * 1000).toISOString().replace("Z", "123456Z");
  const hex = createHmac("sha256", key)
    .update(id + timestamp + payload)
    .digest("hex");
  return {
    "twitch-eventsub-message-id": id,
    "twitch-eventsub-message-timestamp": timestamp,
    "twitch-eventsub-message-type": type,
    "twitch-eventsub-message-signature": `sha256=${hex}`,
  };
}

describeSender("Twitch EventSub", {
  scheme: twitch(),
  secret,
  otherSecret: "another-secret-of-ten",
  body,
  type: "channel.follow",
  timed: true,
  sign: twitchSigns,
  accepts: (payload, headers, key) => {
    const id = headers["twitch-eventsub-message-id"] ?? "";
    const timestamp = headers["twitch-eventsub-message-timestamp"] ?? "";
    const hex = createHmac("sha256", key)
      .update(id + timestamp + payload)
      .digest("hex");
    return headers["twitch-eventsub-message-signature"] === `sha256=${hex}`;
  },
});

describe("Twitch's challenge, revocations and window", () => {
  const now = () => Math.floor(Date.now() / 1000);

  it("answers the callback verification with the raw challenge as text/plain", async () => {
    const receiver = createReceiver({ scheme: twitch(), secret });
    const verification = JSON.stringify({
      challenge: "pogchamp-kappa-360noscope-vohiyo",
      subscription: { type: "channel.follow" },
    });
    const headers = twitchSigns(verification, secret, now(), "webhook_callback_verification");
    const answered = await receiver.receive({ rawBody: Buffer.from(verification), headers });
    expect([answered.status, answered.body, answered.headers]).toEqual([
      200,
      "pogchamp-kappa-360noscope-vohiyo",
      { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" },
    ]);
  });

  it("types a revocation as such, from the signed body", async () => {
    const seen: string[] = [];
    const receiver = createReceiver({ scheme: twitch(), secret }).on("revocation", (_event, ctx) => {
      seen.push(ctx.type);
    });
    const revoked = JSON.stringify({ subscription: { type: "channel.follow", status: "authorization_revoked" } });
    const headers = twitchSigns(revoked, secret, now(), "revocation");
    expect((await receiver.receive({ rawBody: Buffer.from(revoked), headers })).code).toBe("accepted");
    expect(seen).toEqual(["revocation"]);
  });

  it("accepts 9 minutes old and refuses 11, as Twitch documents", async () => {
    expect(await codeOf(() => twitch().verify(body, twitchSigns(body, secret, now() - 540), secret))).toBeUndefined();
    expect(await codeOf(() => twitch().verify(body, twitchSigns(body, secret, now() - 660), secret))).toBe(
      "timestamp_too_old",
    );
  });
});
