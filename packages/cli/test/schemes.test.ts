import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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
  const run = await runCli([
    "check",
    "--url",
    url,
    "--secret",
    secret,
    "--scheme",
    scheme.name,
    "--json",
    "--size",
    "2000",
  ]);
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

it("send --scheme delivers events a receiver of that scheme accepts", async () => {
  const seen: string[] = [];
  const receiver = createReceiver({ scheme: github(), secret: "s", logger: { error() {} } }).onAny(
    (_event, context) => {
      seen.push(context.type);
    },
  );
  const url = await serve((request, response) => {
    handleNodeRequest(receiver, request, { consumedFix: "n/a" }).then((result) => writeNodeResponse(response, result));
  });
  const run = await runCli(["send", "--url", url, "--secret", "s", "--scheme", "github", "-n", "2"]);
  expect(run.code).toBe(0);
  expect(seen).toEqual(["issues.opened", "issues.opened"]);
});
