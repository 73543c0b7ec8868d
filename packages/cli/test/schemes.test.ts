import { createHmac } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createReceiver } from "@tidings/core";
import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";
import {
  catalogue,
  github,
  gitlab,
  mailgun,
  type Scheme,
  shopify,
  slack,
  standardWebhooks,
  stripe,
  svix,
  twilio,
} from "@tidings/core/schemes";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckReport } from "../src/check/run-check";
import { traitsOf } from "../src/check/scheme-traits";
import { SAMPLES } from "../src/senders/samples";
import { runCli } from "./helpers";
import { keysFor, type SenderKeys, standardKeyPair } from "./scheme-keys";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const SCHEMES = catalogue().filter((scheme) => scheme.name !== "service-signature");

/** The type each sender's sample is routed by: the event its users handle first. */
const SAMPLE_TYPES: Readonly<Record<string, string>> = {
  adyen: "AUTHORISATION",
  calendly: "invitee.created",
  clerk: "user.created",
  discord: "application_command.roll",
  dropbox: "list_folder",
  github: "issues.opened",
  gitlab: "merge_request.open",
  hubspot: "batch",
  intercom: "conversation.user.created",
  "lemon-squeezy": "order_created",
  line: "message",
  linear: "Issue.create",
  liveblocks: "userEntered",
  mailgun: "delivered",
  meta: "whatsapp_business_account.messages",
  mux: "video.asset.ready",
  paddle: "transaction.completed",
  plivo: "message.delivered",
  polar: "order.paid",
  postmark: "Bounce",
  qstash: "message",
  resend: "email.bounced",
  sendgrid: "batch",
  sentry: "issue.created",
  shopify: "orders/create",
  slack: "app_mention",
  square: "payment.updated",
  "standard-webhooks": "user.created",
  stripe: "invoice.paid",
  svix: "user.created",
  telnyx: "message.received",
  twilio: "message.received",
  twitch: "channel.follow",
  typeform: "form_response",
  vercel: "deployment.succeeded",
  vonage: "inbound.sms",
  workos: "user.created",
  zoom: "meeting.started",
};

interface Case {
  label: string;
  scheme: Scheme;
  keys: SenderKeys;
}

const CASES: Case[] = [
  ...SCHEMES.map((scheme) => ({ label: scheme.name, scheme, keys: keysFor(scheme.name) })),
  {
    label: "standard-webhooks, ed25519 (whsk_ signs, whpk_ verifies)",
    scheme: standardWebhooks(),
    keys: standardKeyPair(),
  },
];

/** A node:http server on loopback: `answer` gets every request, or, with `postOnly`, each POST (others 405). */
async function serve(answer: (request: IncomingMessage, response: ServerResponse) => void, postOnly = false) {
  const server = createServer((request, response) => {
    if (postOnly && request.method !== "POST") return void response.writeHead(405).end();
    answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

/** A Tidings receiver of `scheme` on loopback, every method handed to it (handshakes too), and the events it handled. */
async function receiverOf(scheme: Scheme, secret: string) {
  const seen: { type: string; event: unknown }[] = [];
  const receiver = createReceiver({ scheme, secret, logger: { error() {} } }).onAny((event, context) => {
    seen.push({ type: context.type, event });
  });
  const url = await serve((request, response) => {
    handleNodeRequest(receiver, request, { consumedFix: "n/a" }).then((result) => writeNodeResponse(response, result));
  });
  return { url, seen };
}

async function check(url: string, scheme: Scheme, secret: string) {
  const run = await runCli(["check", url, "--secret", secret, "--scheme", scheme.name, "--json"]);
  expect(run.stderr).toBe("");
  return { code: run.code, report: JSON.parse(run.stdout) as CheckReport };
}

it("has a sample, and the type it is routed by, for every scheme of the catalogue", () => {
  const names = SCHEMES.map((scheme) => scheme.name);
  expect(names.filter((name) => !SAMPLES[name] || !SAMPLE_TYPES[name])).toEqual([]);
  expect(Object.keys(SAMPLES).filter((name) => !names.includes(name))).toEqual([]);
});

describe.each(CASES)("tidings check --scheme $label", ({ scheme, keys }) => {
  it("passes a Tidings receiver of that scheme", async () => {
    const { url, seen } = await receiverOf(scheme, keys.receiver);
    const { code, report } = await check(url, scheme, keys.sender);
    expect(report.results.filter((result) => !result.pass)).toEqual([]);
    expect(code).toBe(0);
    const { windowSeconds, coversBody } = traitsOf(scheme, keys.sender, url);
    expect(report.skipped.map((skipped) => skipped.name)).toEqual([
      ...(coversBody ? [] : ["tampered-body"]),
      ...(windowSeconds === undefined ? ["timestamp"] : []),
    ]);
    // The valid delivery and its duplicate: one event, except where the sender's deliveries carry no dedup key.
    expect(seen).toHaveLength(scheme.about?.dedup.key.startsWith("none") ? 2 : 1);
  });

  it("fails a naive receiver that answers every POST 200, naming each refusal it let through", async () => {
    const url = await serve((_request, response) => void response.writeHead(200).end(), true);
    const { code, report } = await check(url, scheme, keys.sender);
    expect(code).toBe(1);
    const { windowSeconds, coversBody } = traitsOf(scheme, keys.sender, url);
    const failed = report.results.filter((result) => !result.pass).map((result) => result.name);
    expect(failed).toEqual([
      ...(coversBody ? ["tampered-body"] : []),
      "wrong-secret",
      "missing-header",
      "malformed-header",
      ...(windowSeconds === undefined ? [] : ["timestamp-old", "timestamp-future"]),
    ]);
  });

  it("send --scheme delivers events of the sender's shape, which the receiver routes by their type", async () => {
    const { url, seen } = await receiverOf(scheme, keys.receiver);
    const run = await runCli(["send", "--url", url, "--secret", keys.sender, "--scheme", scheme.name, "-n", "2"]);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(seen.map(({ type }) => type)).toEqual([SAMPLE_TYPES[scheme.name], SAMPLE_TYPES[scheme.name]]);
  });
});

it("signs a time exactly where the catalogue says the scheme keeps a replay window, and a token covers no body", () => {
  const url = "http://127.0.0.1:1/webhooks";
  const read = CASES.map(({ scheme, keys }) => {
    const { windowSeconds, coversBody, signsInBody } = traitsOf(scheme, keys.sender, url);
    return [scheme.name, windowSeconds !== undefined, coversBody || signsInBody];
  });
  const said = CASES.map(({ scheme }) => [
    scheme.name,
    !/^none\b/i.test(scheme.about?.replay ?? ""),
    !/^nothing\b/i.test(scheme.about?.signs ?? ""),
  ]);
  expect(read).toEqual(said);
});

it("says on the report card which probes a sender cannot be held to, and why", async () => {
  const { url } = await receiverOf(gitlab(), "gitlab-token");
  const run = await runCli(["check", url, "--secret", "gitlab-token", "--scheme", "gitlab"]);
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^SKIP {2}a body changed after signing +gitlab sends a shared secret, not a signature/m);
  expect(run.stdout).toMatch(/^SKIP {2}a timestamp outside the window +gitlab signs no time/m);
});

it("a public key given to --secret where the sender's private key goes is refused, saying so", async () => {
  const { url } = await receiverOf(standardWebhooks(), standardKeyPair().receiver);
  const keys = standardKeyPair();
  const run = await runCli(["check", url, "--secret", keys.receiver, "--scheme", "standard-webhooks"]);
  expect([run.code, run.stderr]).toEqual([1, expect.stringContaining("cannot sign with that --secret")]);
});

describe.each([
  [standardWebhooks(), "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
  [svix(), "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
  [stripe(), "whsec_stripe_cli"],
  [github(), "github cli secret"],
  [shopify(), "shpss_cli_secret"],
  [slack(), "slack cli signing secret"],
] as const)("tidings sign --scheme %s", (scheme, secret) => {
  it("prints headers the scheme verifies", async () => {
    const run = await runCli(["sign", "--scheme", scheme.name, "--secret", secret], { stdin: ['{"type":"x"}'] });
    const headers = Object.fromEntries(
      run.stdout
        .trim()
        .split("\n")
        .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
    );
    expect(scheme.verify('{"type":"x"}', headers, secret).secretIndex).toBe(0);
  });
});

it("sign --scheme prints the headers of a sender that signs the URL for --url, and asks for --url without it", async () => {
  const url = "https://hooks.example.com/twilio/sms";
  const body = "Body=Hello&From=%2B15005550006&MessageSid=SM0123456789abcdef0123456789abcdef&SmsStatus=received";
  const run = await runCli(["sign", "--scheme", "twilio", "--secret", "auth-token", "--url", url], { stdin: [body] });
  const [name, value] = run.stdout.trim().split(": ");
  expect(
    twilio().verify(body, { [name as string]: value as string }, "auth-token", { request: { method: "POST", url } }),
  ).toMatchObject({ secretIndex: 0 });
  const without = await runCli(["sign", "--scheme", "twilio", "--secret", "auth-token"], { stdin: [body] });
  expect([without.code, without.stderr]).toEqual([1, expect.stringContaining("--url")]);
});

it("send --scheme github sends issues events shaped as GitHub's, which a GitHub receiver routes and reads", async () => {
  const { url, seen } = await receiverOf(github(), "s");
  const run = await runCli(["send", "--url", url, "--secret", "s", "--scheme", "github", "-n", "2"]);
  expect(run.code).toBe(0);
  expect(seen.map(({ type }) => type)).toEqual(["issues.opened", "issues.opened"]);
  expect(seen[0]?.event).toMatchObject({ action: "opened", issue: { title: expect.any(String) }, repository: {} });
});

it("send --scheme stripe sends a Stripe event: `object: event`, its object under data", async () => {
  const { url, seen } = await receiverOf(stripe(), "whsec_stripe_cli");
  expect((await runCli(["send", "-u", url, "-s", "whsec_stripe_cli", "--scheme", "stripe"])).code).toBe(0);
  expect(seen[0]).toMatchObject({
    type: "invoice.paid",
    event: { object: "event", data: { object: { object: "invoice" } } },
  });
});

it("send --payload FILE sends the file's bytes, signed as the scheme's sender signs", async () => {
  const { url, seen } = await receiverOf(stripe(), "whsec_stripe_cli");
  const file = join(mkdtempSync(join(tmpdir(), "tidings-payload-")), "event.json");
  const event = { id: "evt_from_file", object: "event", type: "customer.created", data: { object: { id: "cus_1" } } };
  writeFileSync(file, JSON.stringify(event));
  const run = await runCli(["send", "-u", url, "-s", "whsec_stripe_cli", "--scheme", "stripe", "--payload", file]);
  expect(run.code).toBe(0);
  expect(seen).toEqual([{ type: "customer.created", event }]);
  const missing = await runCli(["send", "-u", url, "-s", "x", "--payload", join(file, "nope")]);
  expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining("--payload")]);
});

it("send --payload FILE sends the file of a sender that signs inside the body as it is, its own signature in it", async () => {
  const key = "key-3ax6xnjp29jd6fds4gc373sgvjxteol0";
  const { url, seen } = await receiverOf(mailgun(), key);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const token = "captured0delivery0token";
  const signature = createHmac("sha256", key).update(`${timestamp}${token}`).digest("hex");
  const captured = {
    signature: { timestamp, token, signature },
    "event-data": { event: "opened", id: "Ase7i2zsRYeDXztHGENqRA" },
  };
  const file = join(mkdtempSync(join(tmpdir(), "tidings-payload-")), "mailgun.json");
  writeFileSync(file, JSON.stringify(captured));
  const run = await runCli(["send", "-u", url, "-s", key, "--scheme", "mailgun", "--payload", file]);
  expect(run.code).toBe(0);
  expect(seen).toEqual([{ type: "opened", event: captured["event-data"] }]);
});

it("check takes the URL as an argument or --url, and says so when given neither", async () => {
  const { url } = await receiverOf(stripe(), "whsec_stripe_cli");
  const flag = await runCli(["check", "--url", url, "-s", "whsec_stripe_cli", "--scheme", "stripe", "--size", "2000"]);
  expect(flag.code).toBe(0);
  const neither = await runCli(["check", "-s", "whsec_stripe_cli"]);
  expect([neither.code, neither.stderr]).toEqual([1, expect.stringContaining("URL")]);
});
