import { createHmac } from "node:crypto";
import { parse } from "node:querystring";
import { plivo } from "@tidings/core/schemes";
import plivoSdk from "plivo";
import { describe, expect, it } from "vitest";
import { codeOf, describeSender } from "./harness";

const TOKEN = "ZWQ5YjM0NjE3NjM3NGI3ZTA1OTE3ZjQ3NjVmMzMy";
const URL = "https://hooks.example.com/plivo/sms?account=1";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

// A delivery report as Plivo posts it.
const body = [
  "From=14155550100",
  "MessageUUID=f1d6a6c4-6c0e-11ee-8c99-0242ac120002",
  "Status=delivered",
  "To=14155550111",
  "TotalAmount=0.00500",
  "TotalRate=0.00500",
  "Units=1",
].join("&");

/**
 * Plivo's documented V3 algorithm, written out (the SDK only verifies): the URL with its query's fields sorted, `.`,
 * the POST fields sorted by name (name + value), `.`, the nonce; HMAC-SHA256 with the Auth Token, base64.
 */
function plivoSign(text: string, token: string, url: string, nonce: string): string {
  const [base, query] = url.split("?") as [string, string | undefined];
  const sorted = (fields: Record<string, unknown>, pair: (name: string, value: string) => string) =>
    Object.keys(fields)
      .sort()
      .flatMap((name) =>
        [fields[name]]
          .flat()
          .map(String)
          .sort()
          .map((value) => pair(name, value)),
      );
  const queryText = sorted(parse(query ?? ""), (name, value) => `${name}=${value}`).join("&");
  const params = sorted(parse(text), (name, value) => name + value).join("");
  const signed = queryText ? `${base}?${queryText}.${params}` : `${base}?${params}`;
  return createHmac("sha256", token).update(`${signed}.${nonce}`).digest("base64");
}

const accepted = (text: string, headers: Record<string, string>, token: string, url = URL): boolean =>
  plivoSdk.validateV3Signature(
    "POST",
    url,
    headers["x-plivo-signature-v3-nonce"] ?? "",
    token,
    headers["x-plivo-signature-v3"] ?? "",
    parse(text),
  ) === true;

describeSender("Plivo", {
  scheme: plivo(),
  secret: TOKEN,
  otherSecret: "MDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAw",
  body,
  type: "message.delivered",
  timed: false,
  request: { method: "POST", url: URL },
  sign(text, token) {
    const nonce = "05429567804466091622";
    const headers = {
      ...FORM,
      "x-plivo-signature-v3-nonce": nonce,
      "x-plivo-signature-v3": plivoSign(text, token, URL, nonce),
    };
    // The oracle: what the test signs is what the SDK verifies.
    expect(accepted(text, headers, token)).toBe(true);
    return headers;
  },
  accepts: (text, headers, token) => accepted(text, headers, token),
});

describe("Plivo, beyond the shared checks", () => {
  const scheme = plivo();
  const request = { method: "POST", url: URL };
  const nonce = "12345678901234567890";
  const headersOf = (signature: string) => ({
    ...FORM,
    "x-plivo-signature-v3-nonce": nonce,
    "x-plivo-signature-v3": signature,
  });

  it("takes any one of several comma-separated signatures", async () => {
    const good = plivoSign(body, TOKEN, URL, nonce);
    const other = plivoSign(body, "another", URL, nonce);
    expect(await codeOf(() => scheme.verify(body, headersOf(`${other},${good}`), TOKEN, { request }))).toBeUndefined();
    expect(accepted(body, headersOf(`${other},${good}`), TOKEN)).toBe(true);
  });

  it("signs the nonce and the query's fields, decoded and sorted, as the SDK reads them", async () => {
    const url = "https://hooks.example.com/plivo/sms?z=last&a=first%20one&a=0";
    const signature = plivoSign(body, TOKEN, url, nonce);
    expect(accepted(body, headersOf(signature), TOKEN, url)).toBe(true);
    expect(
      await codeOf(() => scheme.verify(body, headersOf(signature), TOKEN, { request: { ...request, url } })),
    ).toBeUndefined();
    const otherNonce = { ...headersOf(signature), "x-plivo-signature-v3-nonce": "1" };
    expect(await codeOf(() => scheme.verify(body, otherNonce, TOKEN, { request: { ...request, url } }))).toBe(
      "signature_mismatch",
    );
  });

  it("needs the nonce, and routes an incoming message and a call", async () => {
    const { "x-plivo-signature-v3-nonce": _, ...without } = headersOf(plivoSign(body, TOKEN, URL, nonce));
    expect(await codeOf(() => scheme.verify(body, without, TOKEN, { request }))).toBe("missing_header");
    expect(scheme.typeOf({ MessageUUID: "f1d6a6c4", From: "1", Text: "hi" }, {})).toBe("message");
    expect(scheme.typeOf({ CallUUID: "c1", CallStatus: "ringing" }, {})).toBe("call.ringing");
  });
});
