import {
  createHmac,
  createSecretKey,
  sign as edSign,
  verify as edVerify,
  generateKeyPairSync,
  type KeyObject,
  timingSafeEqual,
} from "node:crypto";
import { verify as octokitVerify } from "@octokit/webhooks-methods";
import { sign as serviceSign, verify as serviceVerify } from "@tidings/core";
import { github, type Scheme, shopify, slack, standardWebhooks, stripe, svix } from "@tidings/core/schemes";
import { Webhook as StandardWebhook } from "standardwebhooks";
import Stripe from "stripe";
import { Webhook as SvixWebhook } from "svix";

/** One scheme at one size: Tidings' verify, the scheme's floor, and the sender's own verifier where it has one. */
export interface SchemeCase {
  scheme: string;
  /** Tidings' verify of one delivery. */
  tidings: () => unknown;
  /**
   * The least any verifier must do, handed the header's parts ready-made (no parsing, no checks): the bare HMAC (or
   * ed25519 verify) over the signed bytes with a ready key, the signature decoded from its header text, the compare.
   */
  floor: () => unknown;
  /** The sender's own library on the same delivery: the bytes received, decoded first where it takes only a string. */
  peer?: { name: string; run: () => unknown };
}

const WHSEC = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const stripeClient = new Stripe("sk_test_bench");

function body(size: number): Buffer {
  const head = JSON.stringify({ id: "evt_bench", type: "invoice.paid", data: { pad: "" } });
  return Buffer.from(head.replace('"pad":""', `"pad":"${"x".repeat(Math.max(0, size - head.length))}"`));
}

/**
 * HMAC-SHA256 over prefix + body with a ready KeyObject (how Tidings holds keys), the signature decoded from the
 * header's text (as the service's floor in the verify suite decodes its `v1` hex), compared in constant time.
 */
function hmacFloor(key: KeyObject, prefix: string, payload: Buffer, signature: string, encoding: "hex" | "base64") {
  return () =>
    timingSafeEqual(
      createHmac("sha256", key).update(prefix).update(payload).digest(),
      Buffer.from(signature, encoding),
    );
}

function must(ok: unknown, what: string) {
  if (ok === false) throw new Error(`${what}: the floor refused a valid delivery`);
}

export function buildSchemeCases(size: number): SchemeCase[] {
  const payload = body(size);
  const text = payload.toString();
  const now = Math.floor(Date.now() / 1000);
  const cases: SchemeCase[] = [];

  const serviceHeader = serviceSign(payload, "whsec_service", { timestamp: now });
  const [, serviceHex] = serviceHeader.split("v1=");
  cases.push({
    scheme: "service-signature",
    tidings: () => serviceVerify(payload, serviceHeader, "whsec_service"),
    floor: hmacFloor(createSecretKey(Buffer.from("whsec_service")), `${now}.`, payload, serviceHex ?? "", "hex"),
  });

  for (const [scheme, Library, name] of [
    [standardWebhooks(), StandardWebhook, "standardwebhooks"],
    [svix(), SvixWebhook, "svix"],
  ] as const) {
    const headers = scheme.sign(payload, WHSEC, { timestamp: now, id: "msg_bench" });
    const signature = (headers[scheme.signatureHeader] ?? "").slice(3);
    const key = createSecretKey(Buffer.from(WHSEC.slice(6), "base64"));
    const library = new Library(WHSEC);
    cases.push({
      scheme: scheme.name,
      tidings: () => scheme.verify(payload, headers, WHSEC),
      floor: hmacFloor(key, `msg_bench.${now}.`, payload, signature, "base64"),
      peer: { name, run: () => library.verify(payload, headers) },
    });
  }

  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(12);
  const whpk = `whpk_${raw.toString("base64")}`;
  const signedBytes = Buffer.concat([Buffer.from(`msg_ed.${now}.`), payload]);
  const edBase64 = edSign(null, signedBytes, privateKey).toString("base64");
  const edHeaders = {
    "webhook-id": "msg_ed",
    "webhook-timestamp": String(now),
    "webhook-signature": `v1a,${edBase64}`,
  };
  const edKey = publicKey;
  const edScheme = standardWebhooks();
  cases.push({
    scheme: "standard-webhooks (ed25519)",
    tidings: () => edScheme.verify(payload, edHeaders, whpk),
    floor: () =>
      edVerify(null, Buffer.concat([Buffer.from(`msg_ed.${now}.`), payload]), edKey, Buffer.from(edBase64, "base64")),
  });

  const stripeSecret = "whsec_stripe_bench";
  const stripeHeader = stripeClient.webhooks.generateTestHeaderString({
    payload: text,
    secret: stripeSecret,
    timestamp: now,
  });
  const stripeHex = stripeHeader.split("v1=")[1] ?? "";
  const stripeScheme = stripe();
  cases.push({
    scheme: "stripe",
    tidings: () => stripeScheme.verify(payload, { "stripe-signature": stripeHeader }, stripeSecret),
    floor: hmacFloor(createSecretKey(Buffer.from(stripeSecret)), `${now}.`, payload, stripeHex, "hex"),
    peer: {
      name: "stripe",
      run: () => stripeClient.webhooks.signature?.verifyHeader(payload, stripeHeader, stripeSecret),
    },
  });

  const githubSecret = "github bench secret";
  const githubScheme = github();
  const githubHeaders = githubScheme.sign(payload, githubSecret);
  const githubSignature = githubHeaders["x-hub-signature-256"] ?? "";
  cases.push({
    scheme: "github",
    tidings: () => githubScheme.verify(payload, githubHeaders, githubSecret),
    floor: hmacFloor(createSecretKey(Buffer.from(githubSecret)), "", payload, githubSignature.slice(7), "hex"),
    // Octokit takes the body as a string only: the decoding of the bytes received is part of its cost.
    peer: {
      name: "@octokit/webhooks-methods",
      run: () => octokitVerify(githubSecret, payload.toString(), githubSignature),
    },
  });

  for (const [scheme, secret] of [
    [shopify(), "shpss_bench"],
    [slack(), "slack bench secret"],
  ] as [Scheme, string][]) {
    const headers = scheme.sign(payload, secret, { timestamp: now });
    const value = headers[scheme.signatureHeader] ?? "";
    const slackLike = scheme.name === "slack";

    cases.push({
      scheme: scheme.name,
      tidings: () => scheme.verify(payload, headers, secret),
      floor: hmacFloor(
        createSecretKey(Buffer.from(secret)),
        slackLike ? `v0:${now}:` : "",
        payload,
        slackLike ? value.slice(3) : value,
        slackLike ? "hex" : "base64",
      ),
    });
  }
  for (const testCase of cases) must(testCase.floor(), testCase.scheme);
  return cases;
}
