import { createReceiver } from "@tidings/core";
import { createLambdaHandler, type LambdaHttpEvent } from "@tidings/lambda";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  albEvent,
  functionUrlEvent,
  type HttpRequest,
  httpApiEvent,
  restApiEvent,
} from "../../packages/lambda/test/aws-events";
import { urlFormScheme } from "../conformance/url-schemes";

// Deliveries signed over the URL (Twilio's way) through every Lambda event source, for generated queries: the URL the
// function rebuilds is the one called, another query is a mismatch, and no query makes the handler throw.

const SECRET = "whsec_lambda_signed_urls";
const RUNS = 300;
const ORIGIN = "https://hooks.example.com";

const SOURCES: [string, (request: HttpRequest) => LambdaHttpEvent][] = [
  ["REST API", (request) => restApiEvent(request)],
  ["HTTP API 2.0", httpApiEvent],
  ["Function URL", functionUrlEvent],
  ["ALB", (request) => albEvent(request)],
  ["ALB multi-value", (request) => albEvent(request, { multiValueHeaders: true })],
];

/** The spelling a REST API's decoded query is rebuilt in: `encodeURIComponent`'s, with `+` for a space. */
const spelled = (text: string) => encodeURIComponent(text).replace(/%20/g, "+");
const queryOf = (pairs: readonly (readonly [string, string])[]) =>
  pairs.map(([name, value]) => `${spelled(name)}=${spelled(value)}`).join("&");

// Names unique (REST API and ALB group a repeated name), well-formed text, any Unicode.
const text = fc.string({ unit: "grapheme", maxLength: 12 });
const pairs = fc.uniqueArray(
  fc.tuple(
    text.filter((name) => name.length > 0),
    text,
  ),
  {
    minLength: 1,
    maxLength: 5,
    selector: ([name]) => name,
  },
);

let sid = 0;
function formPost(query: string, signedQuery = query): HttpRequest {
  const body = new TextEncoder().encode(
    new URLSearchParams({ MessageSid: `SM${++sid}`, EventType: "message.received", Body: "hi" }).toString(),
  );
  const signature = urlFormScheme.sign(body, SECRET, { url: `${ORIGIN}/webhooks?${signedQuery}` });
  const headers: [string, string][] = [
    ["Host", "hooks.example.com"],
    ["X-Forwarded-Proto", "https"],
    ["Content-Type", "application/x-www-form-urlencoded"],
    ...Object.entries(signature),
  ];
  return { method: "POST", headers, body, url: `/webhooks?${query}` };
}

const handler = createLambdaHandler(createReceiver({ scheme: urlFormScheme, secret: SECRET, logger: { error() {} } }));

describe.each(SOURCES)("URL-signed deliveries through %s events", (_name, toEvent) => {
  it("verify for any query written in the usual spelling", async () => {
    await fc.assert(
      fc.asyncProperty(pairs, async (generated) => {
        const result = await handler(toEvent(formPost(queryOf(generated))));
        expect([result.statusCode, result.body]).toEqual([200, '{"received":true}']);
      }),
      { numRuns: RUNS },
    );
  });

  it("are a mismatch when any name or value of the query differs from what was signed", async () => {
    await fc.assert(
      fc.asyncProperty(pairs, pairs, async (signed, sent) => {
        fc.pre(queryOf(signed) !== queryOf(sent));
        const result = await handler(toEvent(formPost(queryOf(sent), queryOf(signed))));
        expect([result.statusCode, JSON.parse(result.body).error?.code]).toEqual([400, "signature_mismatch"]);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("a REST API or ALB query map of any strings", () => {
  it("is answered, never thrown on: lone surrogates, empty names, every code unit", async () => {
    // UTF-16 code units, lone surrogates among them.
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    const anyText = fc.string({
      unit: fc.oneof(codeUnit, fc.constantFrom("\ud800", "\udfff", "+", "%", "&", "=")),
      maxLength: 8,
    });
    const map = fc.dictionary(anyText, fc.array(anyText, { maxLength: 3 }), { maxKeys: 4 });
    await fc.assert(
      fc.asyncProperty(map, fc.boolean(), async (multi, alb) => {
        const event = { ...toRestOrAlb(alb), multiValueQueryStringParameters: multi };
        const result = await handler(event);
        expect([200, 400]).toContain(result.statusCode);
      }),
      { numRuns: RUNS },
    );
  });
});

function toRestOrAlb(alb: boolean): LambdaHttpEvent {
  const request = formPost("x=1");
  return alb ? albEvent(request, { multiValueHeaders: true }) : restApiEvent(request);
}
