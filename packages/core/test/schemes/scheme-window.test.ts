import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createReceiver, type WebhookVerificationError } from "../../src/entries";
import { defineScheme, requiredHeader, timestampOf } from "../../src/entries/schemes";

// A sender that documents a 10-minute window: `X-Ten-Time` and `X-Ten-Signature: <hex HMAC of "<time>.<body>">`.
const tenMinutes = defineScheme({
  name: "ten-minutes",
  signatureHeader: "x-ten-signature",
  toleranceSeconds: 600,
  read(payload, headers, secrets, toleranceSeconds) {
    const time = requiredHeader(headers, "x-ten-time", "X-Ten-Time");
    const signature = requiredHeader(headers, "x-ten-signature", "X-Ten-Signature");
    const content = { prefix: `${time}.`, payload, signatures: [signature] };
    return { content, secrets, timestamp: timestampOf(time, "X-Ten-Time"), toleranceSeconds };
  },
  typeOf: (event) => event.type as string,
  idOf: (event) => event.id as string,
  sign: () => ({}),
});

const body = JSON.stringify({ id: "e1", type: "thing.happened" });
const signedAgo = (seconds: number) => {
  const time = String(Math.floor(Date.now() / 1000) - seconds);
  return { "x-ten-time": time, "x-ten-signature": createHmac("sha256", "s").update(`${time}.${body}`).digest("hex") };
};
const codeOf = (run: () => unknown) => {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as WebhookVerificationError).code;
  }
};

describe("a scheme's own replay window", () => {
  it("applies when no toleranceSeconds is given: 8 minutes old verifies, 11 minutes old does not", () => {
    expect(codeOf(() => tenMinutes.verify(body, signedAgo(480), "s"))).toBeUndefined();
    expect(codeOf(() => tenMinutes.verify(body, signedAgo(660), "s"))).toBe("timestamp_too_old");
  });

  it("gives way to a toleranceSeconds given to verify or to the Receiver", async () => {
    expect(codeOf(() => tenMinutes.verify(body, signedAgo(480), "s", { toleranceSeconds: 300 }))).toBe(
      "timestamp_too_old",
    );
    const strict = createReceiver({ scheme: tenMinutes, secret: "s", toleranceSeconds: 300 });
    expect((await strict.receive({ rawBody: Buffer.from(body), headers: signedAgo(480) })).code).toBe(
      "timestamp_too_old",
    );
  });

  it("applies in a Receiver given none, whose dedup then outlasts it", async () => {
    const receiver = createReceiver({ scheme: tenMinutes, secret: "s" });
    const delivery = { rawBody: Buffer.from(body), headers: signedAgo(480) };
    expect((await receiver.receive(delivery)).code).toBe("accepted");
    expect((await receiver.receive(delivery)).code).toBe("duplicate");
    expect(() => createReceiver({ scheme: tenMinutes, secret: "s", doneTtlMs: 400_000 })).toThrow(TypeError);
  });
});
