import { svix } from "@tidings/core/schemes";
import { Webhook } from "svix";
import { describe, expect, it } from "vitest";
import { accepted, nowSeconds } from "./accepted";
import { describeSender } from "./harness";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const BODY = JSON.stringify({ type: "invoice.paid", data: { id: "in_1", note: "héllo ✓" } });

function svixSign(body: string, secret: string, timestamp: number) {
  const id = `msg_${timestamp}`;
  const signature = new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
  return { "svix-id": id, "svix-timestamp": String(timestamp), "svix-signature": signature };
}

describeSender("Svix", {
  scheme: svix(),
  secret: SECRET,
  otherSecret: "whsec_c2Vjb25kIHNlY3JldCBmb3Igcm90YXRpb24=",
  body: BODY,
  type: "invoice.paid",
  timed: true,
  sign: svixSign,
  accepts: (body, headers, secret) => accepted(() => new Webhook(secret).verify(body, headers)),
});

describe("Svix's webhook-* headers", () => {
  it("are read when the svix-* ones are absent, as the svix library reads them", () => {
    const headers = svixSign(BODY, SECRET, nowSeconds());
    const renamed = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.replace("svix-", "webhook-"), value]),
    );
    expect(() => new Webhook(SECRET).verify(BODY, renamed)).not.toThrow();
    expect(svix().verify(BODY, renamed, SECRET).secretIndex).toBe(0);
  });
});
