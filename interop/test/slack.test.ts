import { createHmac } from "node:crypto";
import { isValidSlackRequest } from "@slack/bolt";
import { createReceiver } from "@tidings/core";
import { slack } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { describeSender } from "./harness";

const SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const OTHER = "0000000000aaaaaaaaaa1111111111bb";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

// Bolt only verifies: the test signs with Slack's documented algorithm, and Bolt checks it.
const slackHeaders = (body: string, secret: string, timestamp: number) => ({
  "x-slack-request-timestamp": String(timestamp),
  "x-slack-signature": `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`,
});

const accepts = (body: string, headers: Record<string, string>, secret: string) =>
  isValidSlackRequest({
    signingSecret: secret,
    body,
    headers: {
      "x-slack-signature": headers["x-slack-signature"] ?? "",
      "x-slack-request-timestamp": Number(headers["x-slack-request-timestamp"]),
    },
  });

const shared = { scheme: slack(), secret: SECRET, otherSecret: OTHER, timed: true, accepts };

describeSender("Slack, the Events API", {
  ...shared,
  body: JSON.stringify({
    type: "event_callback",
    event_id: "Ev08MFMKH6",
    event: { type: "app_mention", user: "U061F7AUR", text: "<@U0LAN0Z89> is it everything?" },
  }),
  type: "app_mention",
  sign: (body, secret, timestamp) => ({ "content-type": "application/json", ...slackHeaders(body, secret, timestamp) }),
});

const command = [
  "token=gIkuvaNzQIHg97ATvDxqgjtO",
  "team_id=T0001",
  "team_domain=example",
  "channel_id=C2147483705",
  "user_id=U2147483697",
  "command=%2Fdeploy",
  "text=prod+now",
  "response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2F1234%2F5678",
  "trigger_id=13345224609.738474920.8088930838d88f008e0",
].join("&");

describeSender("Slack, a slash command", {
  ...shared,
  body: command,
  type: "/deploy",
  sign: (body, secret, timestamp) => ({ ...FORM, ...slackHeaders(body, secret, timestamp) }),
});

const interaction = JSON.stringify({
  type: "block_actions",
  trigger_id: "12466734323.1395872398.c8f0ad3b5d0f3b2e",
  user: { id: "U123" },
  actions: [{ action_id: "approve", value: "yes & more" }],
});

describeSender("Slack, an interaction", {
  ...shared,
  body: `payload=${encodeURIComponent(interaction)}`,
  type: "block_actions",
  sign: (body, secret, timestamp) => ({ ...FORM, ...slackHeaders(body, secret, timestamp) }),
});

describe("Slack forms, beyond the shared checks", () => {
  const scheme = slack();

  it("gives a command's fields and an interaction's payload as the event, deduplicated by trigger_id", () => {
    const fields = scheme.parse?.(Buffer.from(command), FORM) ?? {};
    expect(fields).toMatchObject({ command: "/deploy", text: "prod now", team_id: "T0001" });
    expect(scheme.idOf(fields, Buffer.from(command), FORM)).toBe("13345224609.738474920.8088930838d88f008e0");
    const body = `payload=${encodeURIComponent(interaction)}`;
    const event = scheme.parse?.(Buffer.from(body), FORM) ?? {};
    expect(event).toEqual(JSON.parse(interaction));
    expect(scheme.idOf(event, Buffer.from(body), FORM)).toBe("12466734323.1395872398.c8f0ad3b5d0f3b2e");
  });

  it("reads a JSON body as the Events API, whatever it holds", () => {
    const body = JSON.stringify({
      type: "url_verification",
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
    });
    const event = scheme.parse?.(Buffer.from(body), { "content-type": "application/json" }) ?? {};
    expect(scheme.respond?.(event, { secret: SECRET })?.body).toContain(
      "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
    );
  });
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
      headers: slackHeaders(body, SECRET, Math.floor(Date.now() / 1000)),
    });
    expect(result.status).toBe(200);
    expect(JSON.parse(String(result.body))).toEqual({
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
    });
    expect(seen).toEqual([]);
  });
});
