import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createReceiver } from "../../src/entries";
import { dropbox, meta } from "../../src/entries/schemes";

const noBody = () => {
  throw new Error("a GET handshake reads no body");
};
const get = (receiver: ReturnType<typeof createReceiver>, url: string) =>
  receiver.handle({ method: "GET", headers: { host: "hooks.example.com" }, readBody: noBody, url: () => url });

describe("Dropbox's GET challenge", () => {
  const receiver = createReceiver({ scheme: dropbox(), secret: "dropbox app secret" });

  it("is echoed as text/plain, never sniffed, before any body is read", async () => {
    const result = await get(receiver, "/dropbox?challenge=tf6wbJNhE0mKo8rB");
    expect([result.status, result.body]).toEqual([200, "tf6wbJNhE0mKo8rB"]);
    expect(result.headers).toMatchObject({
      "content-type": "text/plain; charset=utf-8",
      "x-content-type-options": "nosniff",
    });
  });

  it("is not echoed when it is not a short printable token; a GET without one is 405", async () => {
    for (const url of [
      "/dropbox",
      "/dropbox?challenge=",
      `/dropbox?challenge=${"a".repeat(513)}`,
      "/dropbox?challenge=%3Cscript%3E%20x",
    ]) {
      expect((await get(receiver, url)).status, url).toBe(405);
    }
    expect((await get(receiver, "/dropbox?challenge=%0Aset-cookie")).status).toBe(405);
  });

  it("echoes any printable challenge exactly, and nothing else", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 600 }), async (challenge) => {
        const result = await get(receiver, `/dropbox?challenge=${encodeURIComponent(challenge)}`);
        const printable = /^[\x21-\x7e]{1,512}$/.test(challenge);
        expect(result.status).toBe(printable ? 200 : 405);
        if (printable) expect(result.body).toBe(challenge);
      }),
      { numRuns: 200 },
    );
  });

  it("still verifies POST notifications as before", async () => {
    const body = JSON.stringify({ list_folder: { accounts: ["dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc"] } });
    const signature = createHmac("sha256", "dropbox app secret").update(body).digest("hex");
    const result = await receiver.receive({
      rawBody: Buffer.from(body),
      headers: { "x-dropbox-signature": signature },
    });
    expect(result.code).toBe("accepted");
  });
});

describe("Meta's GET verification request", () => {
  const url = (token: string, challenge = "1158201444") =>
    `/meta?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=${challenge}`;

  it("is answered with hub.challenge when the verify token is the one given", async () => {
    const receiver = createReceiver({ scheme: meta({ verifyToken: "meatyhamhock" }), secret: "meta app secret" });
    const result = await get(receiver, url("meatyhamhock"));
    expect([result.status, result.body, result.headers["content-type"]]).toEqual([
      200,
      "1158201444",
      "text/plain; charset=utf-8",
    ]);
  });

  it("is refused (405) with another token, another mode, or no token configured", async () => {
    const receiver = createReceiver({ scheme: meta({ verifyToken: "meatyhamhock" }), secret: "meta app secret" });
    for (const wrong of ["meatyhamhoc", "meatyhamhockx", "", "MEATYHAMHOCK"]) {
      expect((await get(receiver, url(wrong))).status, wrong).toBe(405);
    }
    expect((await get(receiver, url("meatyhamhock").replace("subscribe", "unsubscribe"))).status).toBe(405);
    const without = createReceiver({ scheme: meta(), secret: "meta app secret" });
    expect((await get(without, url("meatyhamhock"))).status).toBe(405);
  });

  it("refuses an empty verify token when the scheme is made", () => {
    expect(() => meta({ verifyToken: "" })).toThrow(TypeError);
  });
});
