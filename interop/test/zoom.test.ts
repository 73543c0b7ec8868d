// Zoom publishes no SDK that verifies webhooks: its documented algorithm is written out here (v0:<timestamp>:<body>,
// HMAC-SHA256, hex), and so is its URL validation (the plainToken's HMAC, hex).
import { createHmac } from "node:crypto";
import { createReceiver } from "@tidings/core";
import { zoom } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { describeSender } from "./harness";

const secret = "kN1pS5pOQ1mOi8Mm5lbxgA";
const body = JSON.stringify({
  event: "meeting.started",
  event_ts: 1700000000123,
  payload: { account_id: "acc", object: { id: 85012345678, uuid: "4444AAAiAAAAAiAiAiiAii==", topic: "Standup" } },
});

function zoomSigns(payload: string, key: string, timestamp: number) {
  const hex = createHmac("sha256", key).update(`v0:${timestamp}:${payload}`).digest("hex");
  return { "x-zm-signature": `v0=${hex}`, "x-zm-request-timestamp": String(timestamp) };
}

describeSender("Zoom", {
  scheme: zoom(),
  secret,
  otherSecret: "another secret token",
  body,
  type: "meeting.started",
  timed: true,
  sign: zoomSigns,
  accepts: (payload, headers, key) => {
    const timestamp = Number(headers["x-zm-request-timestamp"]);
    return headers["x-zm-signature"] === zoomSigns(payload, key, timestamp)["x-zm-signature"];
  },
});

describe("Zoom's URL validation", () => {
  it("is answered with the plainToken's HMAC under the secret that verified it", async () => {
    const receiver = createReceiver({ scheme: zoom(), secret: ["an older token", secret] });
    const validation = JSON.stringify({
      event: "endpoint.url_validation",
      event_ts: 1700000000000,
      payload: { plainToken: "qgg8vlvZRS6UYooatFL8Aw" },
    });
    const headers = zoomSigns(validation, secret, Math.floor(Date.now() / 1000));
    const answered = await receiver.receive({ rawBody: Buffer.from(validation), headers });
    expect(answered.status).toBe(200);
    expect(JSON.parse(String(answered.body))).toEqual({
      plainToken: "qgg8vlvZRS6UYooatFL8Aw",
      encryptedToken: createHmac("sha256", secret).update("qgg8vlvZRS6UYooatFL8Aw").digest("hex"),
    });
  });
});
