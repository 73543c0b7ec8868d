import { SIGNATURE_HEADER } from "@tidings/core";
import { readStart } from "./http/read-start";

export const USER_AGENT = "tidings-cli";

export interface PostResult {
  status: number;
  /** The first few KiB of the answer (`readStart`). */
  body: string;
}

/** POSTs a body under the given `Service-Signature` header value, or the given headers (a scheme's signature and more). */
export async function postEvent(
  url: string,
  payload: string,
  signature: string | Record<string, string>,
  signal: AbortSignal,
) {
  const signed = typeof signature === "string" ? { [SIGNATURE_HEADER]: signature } : signature;
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "user-agent": USER_AGENT, ...signed },
    body: payload,
    signal,
    redirect: "manual",
  });
  return { status: response.status, body: await readStart(response) } satisfies PostResult;
}

/** A short name for why a request got no answer: `ECONNREFUSED`, `timeout`, … */
export function networkErrorName(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "TimeoutError") return "timeout";
  if (error.name === "AbortError") return "aborted";
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === "string") return cause.code;
  if (typeof cause?.message === "string") return cause.message;
  return error.message;
}

/** The receiver's error code when it answered with `{ error: { code } }` (as Tidings receivers do). */
export function errorCodeOf(body: string): string | undefined {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } })?.error?.code;
    return typeof code === "string" ? code : undefined;
  } catch {
    return undefined;
  }
}
