import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { middleware, validateSignature } from "@line/bot-sdk";
import { createReceiver } from "@tidings/core";
import { line } from "@tidings/core/schemes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeSender } from "./harness";

const SECRET = "8f742231b10e8888abcd99yyyzzz85a5";

// LINE's documented algorithm (the SDK verifies, it does not sign): base64 HMAC-SHA256 of the body, keyed by the channel
// secret.
const lineSign = (body: string, secret: string) => ({
  "x-line-signature": createHmac("sha256", secret).update(body).digest("base64"),
});

const message = (id: string, text: string, redelivery = false) => ({
  type: "message",
  mode: "active",
  timestamp: 1_462_629_479_859,
  source: { type: "user", userId: "U4af4980629" },
  webhookEventId: id,
  deliveryContext: { isRedelivery: redelivery },
  replyToken: "nHuyWiB7yP5Zw52FIkcQobQuGDXCTA",
  message: { id: "444573844083572737", type: "text", quoteToken: "q3Plxr4AgKd", text },
});
const follow = (id: string) => ({ ...message(id, ""), type: "follow", message: undefined });
const body = (...events: object[]) => JSON.stringify({ destination: "xxxxxxxxxx", events });

describeSender("LINE", {
  scheme: line(),
  secret: SECRET,
  otherSecret: "rotated0line0channel0secret00000",
  body: body(message("01FZ74A0TDDPYRVKNK77XKC3ZR", "héllo ✓")),
  type: "message",
  timed: false,
  sign: lineSign,
  accepts: (body, headers, secret) => validateSignature(body, secret, headers["x-line-signature"] ?? ""),
});

describe("LINE's middleware", () => {
  let url: string;
  const server = createServer((request, response) => {
    middleware({ channelSecret: SECRET })(request as never, response as never, (error?: unknown) => {
      response.statusCode = error ? 401 : 200;
      response.end(error ? "refused" : JSON.stringify((request as unknown as { body: unknown }).body));
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("accepts what the scheme signs, over HTTP, and refuses it tampered", async () => {
    const sent = body(message("01FZ74A0TDDPYRVKNK77XKC3ZR", "héllo ✓"));
    const headers = { "content-type": "application/json", ...line().sign(sent, SECRET) };
    const ok = await fetch(url, { method: "POST", headers, body: sent });
    expect([ok.status, await ok.json()]).toEqual([200, JSON.parse(sent)]);
    const tampered = await fetch(url, { method: "POST", headers, body: `${sent} ` });
    expect(tampered.status).toBe(401);
  });
});

describe("LINE's bodies", () => {
  const receive = async (sent: string, seen: string[]) => {
    const receiver = createReceiver({ scheme: line(), secret: SECRET }).onAny((_event, ctx) => {
      seen.push(`${ctx.type} ${ctx.deliveryKey}`);
    });
    return {
      receiver,
      result: await receiver.receive({ rawBody: Buffer.from(sent), headers: lineSign(sent, SECRET) }),
    };
  };

  it("answers the console's Verify (no events) 200 once verified, running no handler", async () => {
    const seen: string[] = [];
    const { result } = await receive(body(), seen);
    expect([result.status, seen]).toEqual([200, []]);
  });

  it("types a body by the type its events share, `mixed` otherwise, and keys it by their sorted ids", async () => {
    const seen: string[] = [];
    await receive(body(message("01B", "a"), message("01A", "b")), seen);
    await receive(body(follow("01C"), message("01D", "c")), seen);
    expect(seen).toEqual(["message event:01A,01B", "mixed event:01C,01D"]);
  });

  it("answers LINE's redelivery of an event (a body that differs: isRedelivery) as a duplicate", async () => {
    const seen: string[] = [];
    const { receiver } = await receive(body(message("01FZ74A0TDDPYRVKNK77XKC3ZR", "hi")), seen);
    const again = body(message("01FZ74A0TDDPYRVKNK77XKC3ZR", "hi", true));
    const result = await receiver.receive({ rawBody: Buffer.from(again), headers: lineSign(again, SECRET) });
    expect(result.code).toBe("duplicate");
    expect(seen).toEqual(["message event:01FZ74A0TDDPYRVKNK77XKC3ZR"]);
  });
});
