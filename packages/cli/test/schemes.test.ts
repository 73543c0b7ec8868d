import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createReceiver, type DeliveryContext } from "@tidings/core";
import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";
import { github, type Scheme, shopify, slack, standardWebhooks, stripe, svix } from "@tidings/core/schemes";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckReport } from "../src/check/run-check";
import { runCli } from "./helpers";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const CASES: readonly [Scheme, string][] = [
  [standardWebhooks(), "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
  [svix(), "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
  [stripe(), "whsec_stripe_cli"],
  [github(), "github cli secret"],
  [shopify(), "shpss_cli_secret"],
  [slack(), "slack cli signing secret"],
];

/** A node:http server answering each POST with `answer`; GET and others 405. */
async function serve(
  answer: (request: import("node:http").IncomingMessage, response: import("node:http").ServerResponse) => void,
) {
  const server = createServer((request, response) => {
    if (request.method !== "POST") return void response.writeHead(405).end();
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

async function check(url: string, scheme: Scheme, secret: string) {
  const run = await runCli(["check", url, "--secret", secret, "--scheme", scheme.name, "--json", "--size", "2000"]);
  return { code: run.code, report: JSON.parse(run.stdout) as CheckReport };
}

describe.each(CASES.map(([scheme, secret]) => ({ name: scheme.name, scheme, secret })))(
  "tidings check --scheme $name",
  ({ scheme, secret }) => {
    it("passes a Tidings receiver of that scheme", async () => {
      const seen: DeliveryContext[] = [];
      const receiver = createReceiver({ scheme, secret, logger: { error() {} } }).onAny((_event, context) => {
        seen.push(context);
      });
      const url = await serve((request, response) => {
        handleNodeRequest(receiver, request, { consumedFix: "n/a" }).then((result) =>
          writeNodeResponse(response, result),
        );
      });
      const { code, report } = await check(url, scheme, secret);
      expect(report.results.filter((result) => !result.pass)).toEqual([]);
      expect(code).toBe(0);
      expect(seen).toHaveLength(1);
    });

    it("fails a naive receiver that answers every POST 200, naming what it let through", async () => {
      const url = await serve((_request, response) => {
        response.writeHead(200).end();
      });
      const { code, report } = await check(url, scheme, secret);
      expect(code).toBe(1);
      const failed = report.results.filter((result) => !result.pass).map((result) => result.name);
      expect(failed).toEqual(
        expect.arrayContaining(["tampered-body", "wrong-secret", "missing-header", "malformed-header"]),
      );
    });

    it("sign --scheme prints headers the scheme verifies", async () => {
      const run = await runCli(["sign", "--scheme", scheme.name, "--secret", secret], { stdin: ['{"type":"x"}'] });
      const headers = Object.fromEntries(
        run.stdout
          .trim()
          .split("\n")
          .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
      );
      expect(scheme.verify('{"type":"x"}', headers, secret).secretIndex).toBe(0);
    });
  },
);

/** A Tidings receiver of `scheme` on loopback, and the events it handled. */
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

it("check takes the URL as an argument or --url, and says so when given neither", async () => {
  const { url } = await receiverOf(stripe(), "whsec_stripe_cli");
  const flag = await runCli(["check", "--url", url, "-s", "whsec_stripe_cli", "--scheme", "stripe", "--size", "2000"]);
  expect(flag.code).toBe(0);
  const neither = await runCli(["check", "-s", "whsec_stripe_cli"]);
  expect([neither.code, neither.stderr]).toEqual([1, expect.stringContaining("URL")]);
});
