// Mailgun signs inside the body (`signature: { timestamp, token, signature }`), and no SDK in the workspace verifies:
// its documented algorithm (hex HMAC-SHA256 of timestamp + token) is written out here. The harness's checks that
// need Tidings to sign headers do not apply; the same properties are checked on signed bodies instead.
import { createHmac, randomBytes } from "node:crypto";
import { createReceiver } from "@tidings/core";
import { mailgun } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { codeOf } from "./harness";

const key = "key-3ax6xnjp29jd6fds4gc373sgvjxteol0";
const other = "key-another-signing-key";
const json = { "content-type": "application/json" };
const now = () => Math.floor(Date.now() / 1000);

function mailgunSigns(
  eventData: Record<string, unknown>,
  signingKey = key,
  timestamp = now(),
  token = randomBytes(25).toString("hex"),
) {
  const signature = createHmac("sha256", signingKey).update(`${timestamp}${token}`).digest("hex");
  return JSON.stringify({ signature: { timestamp: String(timestamp), token, signature }, "event-data": eventData });
}

const event = {
  event: "delivered",
  id: "CPgfbmQMTCKtHW6uIWtuVe",
  recipient: "alice@example.com",
  timestamp: 1521472262.9,
};

describe("Mailgun (mailgun)", () => {
  it("verifies what Mailgun signs, sync and async, and says which secret of a rotation signed it", async () => {
    const body = mailgunSigns(event);
    expect(mailgun().verify(body, json, key)).toMatchObject({ secretIndex: 0 });
    expect(await mailgun().verifyAsync(Buffer.from(body), new Headers(json), [other, key])).toMatchObject({
      secretIndex: 1,
    });
  });

  it("refuses a changed signature, token or timestamp, and a wrong key, with signature_mismatch", async () => {
    const body = JSON.parse(mailgunSigns(event));
    for (const field of ["token", "timestamp"] as const) {
      const changed = { ...body, signature: { ...body.signature, [field]: `${body.signature[field]}1` } };
      expect(await codeOf(() => mailgun().verify(JSON.stringify(changed), json, key))).toBe("signature_mismatch");
    }
    expect(await codeOf(() => mailgun().verifyAsync(JSON.stringify(body), json, other))).toBe("signature_mismatch");
  });

  it("refuses an old delivery", async () => {
    expect(await codeOf(() => mailgun().verify(mailgunSigns(event, key, now() - 3600), json, key))).toBe(
      "timestamp_too_old",
    );
  });

  it("is picked by its Content-Type and body: missing_header without either, a typed 400 for a broken one", async () => {
    const body = mailgunSigns(event);
    expect(await codeOf(() => mailgun().verify(body, {}, key))).toBe("missing_header");
    expect(await codeOf(() => mailgun().verify(JSON.stringify({ "event-data": event }), json, key))).toBe(
      "missing_header",
    );
    for (const broken of ["garbage", "", "zz", "x".repeat(9000)]) {
      const changed = JSON.parse(body);
      changed.signature.signature = broken;
      const code = await codeOf(() => mailgun().verify(JSON.stringify(changed), json, key));
      expect(["malformed_header", "no_supported_signature"]).toContain(code);
    }
    expect(await codeOf(() => mailgun().verify(body, { "content-type": "text/plain" }, key))).toBe("malformed_header");
  });

  it("is handled once through a Receiver, typed by event-data.event; the same signature never admits a second event", async () => {
    const seen: string[] = [];
    const receiver = createReceiver({ scheme: mailgun(), secret: key }).onAny((data, ctx) => {
      seen.push(`${ctx.type}:${(data as { id: string }).id}`);
    });
    const body = mailgunSigns(event);
    expect((await receiver.receive({ rawBody: Buffer.from(body), headers: json })).code).toBe("accepted");
    expect((await receiver.receive({ rawBody: Buffer.from(body), headers: json })).code).toBe("duplicate");
    // Mailgun's signature does not cover event-data: the captured signature with another event is the same delivery.
    const forged = JSON.parse(body);
    forged["event-data"] = { ...event, event: "failed", id: "another" };
    expect((await receiver.receive({ rawBody: Buffer.from(JSON.stringify(forged)), headers: json })).code).toBe(
      "duplicate",
    );
    expect(seen).toEqual(["delivered:CPgfbmQMTCKtHW6uIWtuVe"]);
  });

  it("describes its sender for the catalogue", () => {
    expect(mailgun().about).toMatchObject({ sender: "Mailgun", dedup: { signed: true } });
    expect(() => mailgun().sign("{}", key)).toThrow(TypeError);
  });
});
