import { createReceiver, type ErrorCode, type SecretRequest, sign } from "@tidings/core";
import { createLambdaHandler, type LambdaHttpEvent, type LambdaHttpResult } from "@tidings/lambda";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  albEvent,
  functionUrlEvent,
  type HttpRequest,
  httpApiEvent,
  restApiEvent,
} from "../../packages/lambda/test/aws-events";

const SECRET = "whsec_lambda_malformed";
// Each run calls two handlers; a few seconds in all.
const RUNS = 2_000;
const BODY = new TextEncoder().encode(
  JSON.stringify({ id: "evt_malformed", type: "message.sent", data: { id: "msg_1", status: "sent" } }),
);

/**
 * Two receivers that ask the event for everything it may carry: one with a fixed secret and an outcome listener
 * (which reads the target), one with a secret resolver (which reads the target and the headers).
 */
function handlers() {
  const errors: ErrorCode[] = [];
  const resolved: SecretRequest[] = [];
  const quiet = { error() {}, warn() {} };
  const fixed = createReceiver({ secret: SECRET, logger: quiet })
    .onError((_error, { code }) => {
      errors.push(code);
    })
    .onOutcome(() => {});
  const resolver = createReceiver({
    secret: (request) => {
      resolved.push(request);
      return { secret: SECRET, endpoint: "acct" };
    },
    logger: quiet,
  }).onError((_error, { code }) => {
    errors.push(code);
  });
  return { all: [createLambdaHandler(fixed), createLambdaHandler(resolver)], errors, resolved };
}

interface Answer {
  status: number;
  code: string | undefined;
  message: string | undefined;
}

/** Calls the handler as Lambda would, with whatever the event is: a throw fails the test with the event in view. */
async function answer(handler: ReturnType<typeof createLambdaHandler>, event: unknown): Promise<Answer> {
  let result: LambdaHttpResult;
  try {
    result = await handler(event as LambdaHttpEvent);
  } catch (error) {
    throw new Error(`the handler threw for ${JSON.stringify(event)}: ${String(error)}`);
  }
  expect(typeof result.statusCode).toBe("number");
  expect(typeof result.body).toBe("string");
  const { error } = JSON.parse(result.body) as { error?: { code?: string; message?: string } };
  return { status: result.statusCode, code: error?.code, message: error?.message };
}

const signedRequest = (): HttpRequest => ({
  method: "POST",
  headers: [
    ["Content-Type", "application/json"],
    ["Service-Signature", sign(BODY, SECRET)],
  ],
  body: BODY,
});

/** Each source's event for a signed delivery, and the header maps it fills. */
const SOURCES = [
  {
    name: "API Gateway REST API (v1 proxy)",
    event: () => restApiEvent(signedRequest()),
    maps: ["headers", "multiValueHeaders"],
  },
  { name: "API Gateway HTTP API (payload 2.0)", event: () => httpApiEvent(signedRequest()), maps: ["headers"] },
  { name: "Lambda Function URL", event: () => functionUrlEvent(signedRequest()), maps: ["headers"] },
  { name: "ALB", event: () => albEvent(signedRequest()), maps: ["headers"] },
  {
    name: "ALB with multi-value headers",
    event: () => albEvent(signedRequest(), { multiValueHeaders: true }),
    maps: ["multiValueHeaders"],
  },
] as const;

type SourceEvent = Record<string, unknown> & { headers?: unknown; multiValueHeaders?: unknown };

/** The source's event with `value` as the header `name` in every header map it has (a list's one value too). */
function withHeader(source: (typeof SOURCES)[number], name: string, value: unknown): SourceEvent {
  const event = source.event() as unknown as SourceEvent;
  for (const map of source.maps) {
    const headers = { ...(event[map] as Record<string, unknown>) };
    for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
    // An own property whatever the name, `__proto__` included, as JSON.parse makes it.
    const set = map === "multiValueHeaders" && typeof value === "string" ? [value] : value;
    Object.defineProperty(headers, name, { value: set, enumerable: true, writable: true, configurable: true });
    event[map] = headers;
  }
  return event;
}

const NOT_OBJECTS: unknown[] = [null, undefined, 0, 42, -1.5, "", "t=1,v1=00", true, false, [], [{ headers: {} }]];

describe("createLambdaHandler given an event that is not an object", () => {
  it.each(NOT_OBJECTS.map((event) => [JSON.stringify(event) ?? "undefined", event]))(
    "%s: 400 missing_header that says what the event is, never a throw",
    async (_, event) => {
      const { all, errors } = handlers();
      for (const handler of all) {
        const got = await answer(handler, event);
        expect([got.status, got.code]).toEqual([400, "missing_header"]);
        expect(got.message).toMatch(/Lambda event is .*not an HTTP event/);
      }
      expect(errors).toEqual(["missing_header", "missing_header"]);
    },
  );

  it("answers with no event at all", async () => {
    const { all } = handlers();
    for (const handler of all) {
      const result = await (handler as unknown as () => Promise<LambdaHttpResult>)();
      expect(result.statusCode).toBe(400);
    }
  });
});

const NOT_STRINGS: [string, unknown][] = [
  ["a number", 1_700_000_000],
  ["zero", 0],
  ["a boolean", true],
  ["an object", { t: 1, v1: "00" }],
  ["an empty object", {}],
  ["a list of numbers", [1, 2]],
  ["a list holding null", [null]],
];

describe.each(SOURCES)("createLambdaHandler behind $name given a header that is not text", (source) => {
  it.each(NOT_STRINGS)("Service-Signature that is %s: 400 malformed_header naming the header", async (_, value) => {
    const { all, errors } = handlers();
    for (const handler of all) {
      const got = await answer(handler, withHeader(source, "Service-Signature", value));
      expect([got.status, got.code]).toEqual([400, "malformed_header"]);
      expect(got.message).toMatch(/"service-signature"/i);
    }
    expect(errors).toEqual(["malformed_header", "malformed_header"]);
  });

  it("another header that is a number: 400 malformed_header, not a throw in the body decoder", async () => {
    const { all } = handlers();
    for (const handler of all) {
      const got = await answer(handler, withHeader(source, "Content-Encoding", 7));
      expect([got.status, got.code]).toEqual([400, "malformed_header"]);
      expect(got.message).toMatch(/"content-encoding"/i);
    }
  });

  it("a list where the source sends one string: 400 malformed_header", async () => {
    const { all } = handlers();
    for (const handler of all) {
      const event = source.event() as unknown as SourceEvent;
      // Where there is a multi-value map it is the one read, as the source fills both alike.
      const map = (source.maps as readonly string[]).includes("multiValueHeaders") ? "multiValueHeaders" : "headers";
      event[map] = {
        ...(event[map] as object),
        "service-signature": map === "headers" ? [sign(BODY, SECRET)] : sign(BODY, SECRET),
      };
      const got = await answer(handler, event);
      expect([got.status, got.code]).toEqual([400, "malformed_header"]);
    }
  });

  it("a header whose value is null counts as absent", async () => {
    const { all } = handlers();
    for (const handler of all) {
      const got = await answer(handler, withHeader(source, "Service-Signature", null));
      expect([got.status, got.code]).toEqual([400, "missing_header"]);
    }
  });

  it.each([
    ["a string", "service-signature: t=1"],
    ["a number", 5],
    ["a list", [["service-signature", "t=1"]]],
  ])("a header map that is %s: 400 malformed_header", async (_, value) => {
    const { all } = handlers();
    for (const handler of all) {
      const event = source.event() as unknown as SourceEvent;
      for (const map of source.maps) event[map] = value;
      const got = await answer(handler, event);
      expect([got.status, got.code]).toEqual([400, "malformed_header"]);
    }
  });

  it("headers named after Object.prototype's members are read as headers, nothing more", async () => {
    const { all } = handlers();
    for (const handler of all) {
      for (const name of ["__proto__", "constructor", "toString", "get", "hasOwnProperty"]) {
        const event = JSON.parse(JSON.stringify(withHeader(source, name, "x"))) as SourceEvent;
        expect((await answer(handler, event)).status, name).toBe(200);
      }
    }
  });

  it("still accepts its signed delivery", async () => {
    const { all } = handlers();
    for (const handler of all) expect((await answer(handler, source.event())).status).toBe(200);
  });
});

// Arbitrary JSON, objects with prototype-member keys included.
const json = fc.jsonValue({ maxDepth: 3 });
const headerName = fc.oneof(
  fc.constantFrom("Service-Signature", "service-signature", "Content-Encoding", "content-length", "__proto__"),
  fc.string({ maxLength: 12 }),
);

describe("createLambdaHandler over arbitrary JSON (fast-check)", () => {
  it("an arbitrary JSON value as a header's value, in any source's header maps: never a throw, never a 5xx", async () => {
    const { all, errors } = handlers();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SOURCES), headerName, json, async (source, name, value) => {
        for (const handler of all) {
          const got = await answer(handler, withHeader(source, name, value));
          expect(got.status, JSON.stringify({ source: source.name, name, value, got })).toBeLessThan(500);
        }
      }),
      { numRuns: RUNS },
    );
    expect(errors).not.toContain("internal_error");
  });

  it("an arbitrary JSON value in any field of a proxy event but the body: never a throw, never a 5xx", async () => {
    const fields = fc.constantFrom(
      "headers",
      "multiValueHeaders",
      "httpMethod",
      "requestContext",
      "path",
      "rawPath",
      "resource",
      "routeKey",
      "pathParameters",
      "isBase64Encoded",
    );
    const { all, errors } = handlers();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SOURCES),
        fc.dictionary(fields, json, { maxKeys: 4 }),
        async (source, replaced) => {
          const event = { ...(source.event() as unknown as SourceEvent), ...replaced };
          for (const handler of all) {
            const got = await answer(handler, event);
            expect(got.status, JSON.stringify({ source: source.name, replaced, got })).toBeLessThan(500);
          }
        },
      ),
      { numRuns: RUNS },
    );
    expect(errors).not.toContain("internal_error");
  });

  it("an arbitrary JSON value as the whole event: never a throw; a 5xx only for a parsed payload, 400 for a non-object", async () => {
    const { all, errors } = handlers();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(json, fc.dictionary(fc.constantFrom("headers", "multiValueHeaders", "body", "httpMethod"), json)),
        async (event) => {
          const isObject = typeof event === "object" && event !== null && !Array.isArray(event);
          for (const handler of all) {
            const got = await answer(handler, event);
            const seen = JSON.stringify({ event, got });
            expect(got.code, seen).not.toBe("internal_error");
            // A non-proxy integration's event (an object with no body string: the parsed payload) is a server
            // misconfiguration, answered 500 body_already_parsed with the fix; everything else is the sender's 4xx.
            if (got.status >= 500) expect([isObject, got.code], seen).toEqual([true, "body_already_parsed"]);
            if (!isObject) expect(got.status, seen).toBe(400);
          }
        },
      ),
      { numRuns: RUNS },
    );
    expect(errors).not.toContain("internal_error");
  });
});
