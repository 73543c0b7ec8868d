import { sign } from "../src/entries";

export const SECRET = "whsec_core_test";
export const NOW_SECONDS = 1_700_000_000;
export const clock = { now: () => NOW_SECONDS * 1000 };
export const BODY =
  '{"type":"message.delivered","id":"evt_1","data":{"id":"msg_1","status":"delivered","channel":"sms"}}';

export function header(body: string | Uint8Array = BODY, secret = SECRET, timestamp = NOW_SECONDS): string {
  return sign(body, secret, { timestamp });
}

/** The 64-hex v1 value of a header made by `sign`. */
export function v1Of(signatureHeader: string): string {
  return signatureHeader.slice(signatureHeader.indexOf("v1=") + 3);
}
