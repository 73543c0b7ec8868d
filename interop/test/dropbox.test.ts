import { createReceiver } from "@tidings/core";
import { dropbox } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";
import { hexHmac, sameText } from "./documented-hmac";
import { describeSender } from "./harness";

const SECRET = "dropbox0app0secret";

// Dropbox's documented algorithm (the `dropbox` SDK has no webhook code): X-Dropbox-Signature, the hex HMAC-SHA256 of
// the body keyed by the app secret.
const dropboxSign = (body: string, secret: string) => ({ "x-dropbox-signature": hexHmac(body, secret) });
const NOTIFICATION = JSON.stringify({
  list_folder: { accounts: ["dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc"] },
  delta: { users: [12345678] },
});

describeSender("Dropbox", {
  scheme: dropbox(),
  secret: SECRET,
  otherSecret: "rotated0dropbox0app0secret",
  body: NOTIFICATION,
  type: "list_folder",
  timed: false,
  dedup: false,
  sign: dropboxSign,
  accepts: (body, headers, secret) =>
    sameText(dropboxSign(body, secret)["x-dropbox-signature"], headers["x-dropbox-signature"] ?? ""),
});

describe("Dropbox's notifications", () => {
  it("run for every change: the next change of the same account is the same body, and is not dropped", async () => {
    let runs = 0;
    const receiver = createReceiver({ scheme: dropbox(), secret: SECRET }).on("list_folder", () => {
      runs++;
    });
    for (let change = 0; change < 3; change++) {
      const result = await receiver.receive({
        rawBody: Buffer.from(NOTIFICATION),
        headers: dropboxSign(NOTIFICATION, SECRET),
      });
      expect(result.code).toBe("accepted");
    }
    expect(runs).toBe(3);
  });
});
