import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, request } from "node:http";
import type { AddressInfo } from "node:net";
import { createReceiver } from "@tidings/core";
import { postmark } from "@tidings/core/schemes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeOf } from "./harness";

// Postmark sends the Basic credentials written in the webhook's URL (`https://user:password@host/path`); no Postmark
// SDK verifies them. Here Node's own HTTP client sends a body to such a URL, as Postmark does, and the headers it
// wrote are verified. The harness's tampering checks do not apply: credentials cover no byte of the body.
const secret = "hooks:s3cr3t-p4ss/w0rd";
const body = JSON.stringify({
  RecordType: "Bounce",
  ID: 4323372036,
  Type: "HardBounce",
  MessageID: "883953f4-6105-42a2-a16a-77a8eac79483",
  Email: "ada@example.com",
  BouncedAt: "2026-01-01T00:00:00Z",
  MessageStream: "outbound",
});

let received: IncomingHttpHeaders[] = [];
const server = createServer((req, res) => {
  received.push(req.headers);
  req.resume();
  req.on("end", () => res.end("ok"));
});
let port = 0;
beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((done) => server.close(done)));

/** The headers Node's HTTP client sends to `https://<credentials>@…`, as Postmark's webhook URL carries them. */
async function sentWith(credentials: string): Promise<Record<string, string>> {
  received = [];
  const [user, password] = credentials.split(/:(.*)/s) as [string, string];
  const url = new URL(`http://127.0.0.1:${port}/webhooks/postmark`);
  url.username = encodeURIComponent(user);
  url.password = encodeURIComponent(password);
  // Node reads the credentials out of the URL itself, decoded, as Postmark does.
  const sent = request(url, { method: "POST", headers: { "content-type": "application/json" } });
  sent.end(body);
  const [response] = await once(sent, "response");
  response.resume();
  await once(response, "end");
  return received[0] as Record<string, string>;
}

describe("Postmark (postmark)", () => {
  it("accepts the credentials Node's HTTP client sends from the URL, sync and async, in a rotation", async () => {
    const headers = await sentWith(secret);
    expect(headers.authorization).toMatch(/^Basic /);
    expect(postmark().verify(body, headers, secret)).toMatchObject({ secretIndex: 0 });
    expect(await postmark().verifyAsync(body, headers, ["hooks:old", secret])).toMatchObject({ secretIndex: 1 });
    expect(postmark().sign(body, secret)).toEqual({ authorization: headers.authorization });
  });

  it("refuses other credentials with signature_mismatch, and none with missing_header", async () => {
    expect(await codeOf(async () => postmark().verify(body, await sentWith("hooks:wrong"), secret))).toBe(
      "signature_mismatch",
    );
    expect(await codeOf(() => postmark().verify(body, {}, secret))).toBe("missing_header");
  });

  it("is handled once through a Receiver, routed by RecordType, the same body again a duplicate", async () => {
    const seen: string[] = [];
    const receiver = createReceiver({ scheme: postmark(), secret }).onAny((_event, ctx) => {
      seen.push(ctx.type);
    });
    const sent = { rawBody: Buffer.from(body), headers: await sentWith(secret) };
    expect((await receiver.receive(sent)).code).toBe("accepted");
    expect((await receiver.receive(sent)).code).toBe("duplicate");
    expect(seen).toEqual(["Bounce"]);
  });

  it("says plainly in its description that credentials prove less than a signature", () => {
    expect(postmark().about).toMatchObject({ dedup: { signed: false }, replay: expect.stringContaining("none") });
    expect(postmark().about?.secret).toContain("less than a signature");
  });
});
