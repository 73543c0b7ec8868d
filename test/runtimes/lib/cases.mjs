// The deliveries every runtime must answer the same way, sent over real loopback HTTP by Node's fetch.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { sign } from "@tidings/core";

/** Same secret as servers/app.ts. */
export const SECRET = "whsec_runtime_matrix";

const encoder = new TextEncoder();

function eventBody(id, messageId) {
  return encoder.encode(
    JSON.stringify({ id, type: "message.delivered", data: { id: messageId, status: "delivered", channel: "sms" } }),
  );
}

function post(baseUrl, body, signature, headers = {}) {
  return fetch(`${baseUrl}/webhooks`, {
    method: "POST",
    headers: { "content-type": "application/json", "service-signature": signature, ...headers },
    body,
  });
}

async function outcome(response) {
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = { text };
  }
  return { status: response.status, code: json.error?.code, duplicate: json.duplicate === true, json };
}

/** test/vectors/vectors.json (computed by OpenSSL), every body as base64 for the server. */
function knownAnswerVectors() {
  const vectors = JSON.parse(readFileSync(new URL("../../vectors/vectors.json", import.meta.url), "utf8"));
  return vectors.map((vector) => ({
    name: vector.name,
    secret: vector.secret,
    timestamp: vector.timestamp,
    signature: vector.signature,
    bodyBase64: vector.bodyBase64 ?? Buffer.alloc(vector.bodyLength, vector.bodyPattern).toString("base64"),
  }));
}

/**
 * Runs every case against a server built from servers/app.ts; returns the checks that passed and what the
 * runtime reported, and throws an AggregateError listing every check that did not hold.
 * `expected.cryptoPath`: the path core must take there; sync `verify` must work exactly where it is node:crypto.
 */
export async function runDeliveryCases(baseUrl, expected) {
  const failures = [];
  const passed = [];
  const check = (name, actual, wanted) => {
    const ok = JSON.stringify(actual) === JSON.stringify(wanted);
    (ok ? passed : failures).push(ok ? name : `${name}: got ${JSON.stringify(actual)}, want ${JSON.stringify(wanted)}`);
  };
  const run = Date.now().toString(36);
  const now = Math.floor(Date.now() / 1000);

  const info = await (await fetch(`${baseUrl}/info`)).json();
  check("crypto path", info.cryptoPath, expected.cryptoPath);
  if (info.coreModule !== undefined) check("built core loaded", /\/dist\/index\.js$/.test(info.coreModule), true);

  const valid = eventBody(`evt_valid_${run}`, "msg_valid");
  const validSignature = sign(valid, SECRET, { timestamp: now });
  const first = await outcome(await post(baseUrl, valid, validSignature));
  check("valid delivery -> 200", [first.status, first.duplicate], [200, false]);

  const replay = await outcome(await post(baseUrl, valid, validSignature));
  check("replayed delivery -> 200 duplicate", [replay.status, replay.duplicate], [200, true]);

  const tamperedBody = eventBody(`evt_valid_${run}`, "msg_forged");
  const tampered = await outcome(await post(baseUrl, tamperedBody, validSignature));
  check("tampered delivery -> 400 signature_mismatch", [tampered.status, tampered.code], [400, "signature_mismatch"]);

  const staleBody = eventBody(`evt_stale_${run}`, "msg_stale");
  const stale = await outcome(await post(baseUrl, staleBody, sign(staleBody, SECRET, { timestamp: now - 600 })));
  check("stale delivery -> 400 timestamp_too_old", [stale.status, stale.code], [400, "timestamp_too_old"]);

  const gzipped = eventBody(`evt_gzip_${run}`, "msg_gzip");
  const gzip = await outcome(
    await post(baseUrl, gzipSync(gzipped), sign(gzipped, SECRET, { timestamp: now }), { "content-encoding": "gzip" }),
  );
  check(`gzip delivery (${info.bodyDecoding}) -> 200`, [gzip.status, gzip.duplicate], [200, false]);

  const bomb = encoder.encode(`{"pad":"${"0".repeat(2 * 1024 * 1024)}"}`);
  const bombed = await outcome(
    await post(baseUrl, gzipSync(bomb), sign(bomb, SECRET, { timestamp: now }), { "content-encoding": "gzip" }),
  );
  check("gzip bomb (2 MiB decoded) -> 413 payload_too_large", [bombed.status, bombed.code], [413, "payload_too_large"]);

  const get = await fetch(`${baseUrl}/webhooks`);
  await get.arrayBuffer();
  check("GET -> 405", get.status, 405);

  const delivered = await (await fetch(`${baseUrl}/delivered`)).json();
  check("handlers ran once per event", delivered, ["msg_valid", "msg_gzip"]);

  const vectorResults = await (
    await fetch(`${baseUrl}/vectors`, { method: "POST", body: JSON.stringify(knownAnswerVectors()) })
  ).json();
  const syncWorks = expected.cryptoPath === "node:crypto";
  for (const result of vectorResults) {
    check(`verifyAsync vector ${result.name}`, result.async, "ok");
    if (syncWorks) check(`verify (sync) vector ${result.name}`, result.sync, "ok");
    else
      check(`verify (sync) refused without node:crypto: ${result.name}`, /needs node:crypto/.test(result.sync), true);
  }

  if (failures.length > 0) {
    throw new AggregateError(failures, `${failures.length} check(s) failed:\n  ${failures.join("\n  ")}`);
  }
  return { info, passed, syncVerify: syncWorks ? "works" : "refused (needs node:crypto), as documented" };
}
