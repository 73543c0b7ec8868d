import { describe, expect, it } from "vitest";
import { urlEchoReceiver } from "../../../test/support/url-echo";
import { createLambdaHandler, type LambdaHttpEvent } from "../src/index";
import { albEvent, functionUrlEvent, type HttpRequest, httpApiEvent, restApiEvent } from "./aws-events";

// The URL a scheme that signs it (Twilio's way) is given: rebuilt from each source's event as the client called it.

const QUERY = "?to=+15551234&note=caf%C3%A9&path=a%2Fb&path=c";
const handler = createLambdaHandler(urlEchoReceiver());

function get(url: string, headers: [string, string][] = [["Host", "hooks.example.com"]]): HttpRequest {
  return { method: "GET", headers: [...headers, ["X-Forwarded-Proto", "https"]], url };
}

async function echoed(event: LambdaHttpEvent): Promise<[number, string]> {
  const result = await handler(event);
  return [result.statusCode, result.body];
}

const SOURCES: { name: string; event: (request: HttpRequest) => LambdaHttpEvent }[] = [
  { name: "API Gateway REST API on a custom domain", event: (request) => restApiEvent(request) },
  { name: "API Gateway HTTP API (payload 2.0)", event: httpApiEvent },
  { name: "Lambda Function URL", event: functionUrlEvent },
  { name: "ALB with multi-value headers", event: (request) => albEvent(request, { multiValueHeaders: true }) },
];

describe.each(SOURCES)("the URL a GET to $name came to", ({ event }) => {
  it("is the protocol AWS set, the Host, the path and the query as sent", async () => {
    expect(await echoed(event(get(`/webhooks${QUERY}`)))).toEqual([200, `https://hooks.example.com/webhooks${QUERY}`]);
  });
});

describe("the URL a GET came to", () => {
  it("keeps a REST API's stage, which its `path` drops, on the API's own domain", async () => {
    const called = get(`/prod/webhooks${QUERY}`, [["Host", "abc123.execute-api.us-east-1.amazonaws.com"]]);
    expect(await echoed(restApiEvent(called, { stage: "prod" }))).toEqual([
      200,
      `https://abc123.execute-api.us-east-1.amazonaws.com/prod/webhooks${QUERY}`,
    ]);
  });

  it("takes ALB's single-value query as sent, the last of a repeated name", async () => {
    expect(await echoed(albEvent(get("/webhooks?a=%2F+b&a=2")))).toEqual([
      200,
      "https://hooks.example.com/webhooks?a=2",
    ]);
  });

  it("is https when no X-Forwarded-Proto says otherwise, and http where AWS's front end says so", async () => {
    const plain = { method: "GET", headers: [["host", "h.example"]] as [string, string][], url: "/webhooks?x=1" };
    expect(await echoed(httpApiEvent(plain))).toEqual([200, "https://h.example/webhooks?x=1"]);
    const http = { ...plain, headers: [...plain.headers, ["x-forwarded-proto", "http"]] as [string, string][] };
    expect(await echoed(httpApiEvent(http))).toEqual([200, "http://h.example/webhooks?x=1"]);
  });

  it("rebuilds the behind-a-proxy URL from publicUrl", async () => {
    const behind = createLambdaHandler(urlEchoReceiver({ publicUrl: "https://hooks.example.com/api" }));
    const result = await behind(httpApiEvent(get(`/webhooks${QUERY}`, [["Host", "internal.example"]])));
    expect([result.statusCode, result.body]).toEqual([200, `https://hooks.example.com/api/webhooks${QUERY}`]);
  });
});
