import { readStart } from "../http/read-start";
import { errorCodeOf, networkErrorName, USER_AGENT } from "../post";
import { schemeNamed } from "../schemes";
import {
  createProbes,
  type Expectation,
  type Probe,
  type ProbeContext,
  type ProbeRequest,
  type SkippedProbe,
} from "./probes";
import { createSchemeProbes, skippedSchemeProbes } from "./scheme-probes";
import { traitsOf } from "./scheme-traits";

/**
 * What `runCheck` probes, and how long an answer may take.
 *
 * @example
 * ```ts
 * import { type CheckOptions, runCheck } from "@tidings/cli";
 *
 * // The same probes for a Stripe-signed endpoint: the sender whose format they take, as `--scheme`.
 * const options: CheckOptions = {
 *   url: "http://127.0.0.1:3000/webhooks/stripe",
 *   secret: process.env.STRIPE_WEBHOOK_SECRET!,
 *   sizeBytes: 256 * 1024,
 *   warnMs: 5_000,
 *   timeoutMs: 10_000,
 *   scheme: "stripe",
 * };
 * console.log((await runCheck(options)).pass);
 * ```
 */
export interface CheckOptions {
  url: string;
  secret: string;
  /** Bytes of the large-body probe. */
  sizeBytes: number;
  /** An answer slower than this is flagged: the sender would give up on it. */
  warnMs: number;
  /** A probe with no answer after this long has failed. */
  timeoutMs: number;
  /** The sender whose format the probes take (`--scheme`); the service's by default. */
  scheme?: string | undefined;
}

/**
 * One probe's request and how the receiver answered it.
 *
 * @example
 * ```ts
 * import { type ProbeResult, runCheck } from "@tidings/cli";
 *
 * const line = (probe: ProbeResult) =>
 *   `${probe.pass ? "PASS" : "FAIL"}  ${probe.title}: expected ${probe.expected}, got ${probe.got} (${probe.ms} ms)`;
 * const report = await runCheck({
 *   url: "http://127.0.0.1:3000/webhooks",
 *   secret: "whsec_local_test",
 *   sizeBytes: 1_000_000,
 *   warnMs: 10_000,
 *   timeoutMs: 15_000,
 * });
 * console.log(report.results.map(line).join("\n"));
 * ```
 */
export interface ProbeResult {
  name: string;
  title: string;
  expected: Expectation;
  /** The HTTP status, or why there was none (`ECONNREFUSED`, `timeout`). */
  got: string;
  /** The HTTP status; null when there was no answer. */
  status: number | null;
  /** The receiver's `error.code`, when it answered in that shape; null otherwise. */
  code: string | null;
  bytesSent: number;
  ms: number;
  pass: boolean;
  slow: boolean;
  /** The likely cause and fix, on a failure. */
  hint?: string;
}

/**
 * What `runCheck` resolves to: every probe's result, and whether all passed.
 *
 * @example
 * ```ts
 * import { type CheckReport, runCheck } from "@tidings/cli";
 *
 * // Against your receiver, started on port 3000 with the same secret: the CLI's `check`, in a test.
 * const report: CheckReport = await runCheck({
 *   url: "http://127.0.0.1:3000/webhooks",
 *   secret: "whsec_local_test",
 *   sizeBytes: 1_000_000,
 *   warnMs: 10_000,
 *   timeoutMs: 15_000,
 * });
 * for (const probe of report.results.filter((result) => !result.pass)) console.error(`${probe.title}: ${probe.hint}`);
 * if (!report.pass) process.exitCode = 1;
 * ```
 */
export interface CheckReport {
  url: string;
  pass: boolean;
  warnMs: number;
  results: ProbeResult[];
  /** Probes the sender's scheme cannot be held to (`--scheme gitlab`: no tampered body), and why; else empty. */
  skipped: SkippedProbe[];
}

function meets(expected: Expectation, status: number): boolean {
  if (expected === "2xx") return status >= 200 && status < 300;
  if (expected === "4xx") return status >= 400 && status < 500;
  return status < 200 || status >= 300;
}

/** A failure's hint: what the answer says first (no answer, a crash, a redirect), else the probe's own. */
function hintFor(probe: Probe, got: { status?: number; error?: string }, url: string): string {
  if (got.status === undefined) {
    return `No answer (${got.error}): is the receiver running and reachable at ${url}?`;
  }
  if (got.status >= 500 && probe.expect === "4xx") {
    return `The receiver failed with ${got.status} on a delivery it should refuse: answer 400, never 5xx, or the sender retries it. ${probe.hint}`;
  }
  if (got.status >= 300 && got.status < 400) {
    return `A redirect (${got.status}): senders do not follow redirects. Give --url the final address of the webhook route.`;
  }
  return probe.hint;
}

async function send(url: string, request: ProbeRequest, timeoutMs: number) {
  const response = await fetch(url, {
    method: request.method,
    headers: { "user-agent": USER_AGENT, ...request.headers },
    ...(request.body ? { body: request.body } : {}),
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: response.status, body: await readStart(response) };
}

async function runProbe(probe: Probe, context: ProbeContext, options: CheckOptions): Promise<ProbeResult> {
  const request = probe.request(context);
  const started = performance.now();
  let got: { status?: number; body?: string; error?: string };
  try {
    got = await send(options.url, request, options.timeoutMs);
  } catch (error) {
    got = { error: networkErrorName(error) };
  }
  const ms = performance.now() - started;
  const pass = got.status !== undefined && meets(probe.expect, got.status);
  const code =
    got.body !== undefined && got.status !== undefined && got.status >= 300 ? errorCodeOf(got.body) : undefined;
  return {
    name: probe.name,
    title: probe.title,
    expected: probe.expect,
    got: got.status === undefined ? (got.error ?? "no answer") : String(got.status),
    status: got.status ?? null,
    code: code ?? null,
    bytesSent: request.body?.byteLength ?? 0,
    ms,
    pass,
    slow: ms > options.warnMs,
    ...(pass ? {} : { hint: hintFor(probe, got, options.url) }),
  };
}

/**
 * Sends every probe to the receiver, one after the other, and grades each answer.
 *
 * @example
 * ```ts
 * import { runCheck } from "@tidings/cli";
 *
 * // Against your receiver, started on port 3000 with the same secret: the CLI's `check`, in a test.
 * const report = await runCheck({
 *   url: "http://127.0.0.1:3000/webhooks",
 *   secret: "whsec_local_test",
 *   sizeBytes: 1_000_000,
 *   warnMs: 10_000,
 *   timeoutMs: 15_000,
 * });
 * for (const probe of report.results.filter((result) => !result.pass)) console.error(`${probe.title}: ${probe.hint}`);
 * if (!report.pass) process.exitCode = 1;
 * ```
 */
export async function runCheck(options: CheckOptions): Promise<CheckReport> {
  const results: ProbeResult[] = [];
  const scheme = schemeNamed(options.scheme);
  const traits = scheme && traitsOf(scheme, options.secret, options.url);
  const probes = scheme && traits ? createSchemeProbes(scheme, traits) : createProbes();
  const skipped = scheme && traits ? skippedSchemeProbes(scheme, traits) : [];
  for (const probe of probes) {
    const now = Math.floor(Date.now() / 1000);
    const context = { secret: options.secret, now, sizeBytes: options.sizeBytes, url: options.url };
    results.push(await runProbe(probe, context, options));
  }
  return { url: options.url, pass: results.every((result) => result.pass), warnMs: options.warnMs, results, skipped };
}
