import { handled, type ReceiveResult } from "../http/result";

/**
 * A handshake's answer, from a scheme's `respond`: 200 (code `accepted`), with the body and content type the sender
 * expects (JSON by default; Twitch wants its challenge as plain text).
 *
 * @example
 * ```ts
 * import { answer } from "@tidings/core/schemes";
 *
 * // Discord's PING, answered with a PONG.
 * export const pong = answer(JSON.stringify({ type: 1 }));
 * // Twitch's challenge, echoed as plain text.
 * export const echo = (challenge: string) => answer(challenge, "text/plain; charset=utf-8");
 * ```
 */
export function answer(body: string, contentType?: string): ReceiveResult {
  const result = handled("accepted", body);
  // Text the sender chose, echoed: never to be sniffed as HTML by a browser that is shown it.
  const headers = { "content-type": contentType ?? "", "x-content-type-options": "nosniff" };
  return contentType === undefined ? result : { ...result, headers };
}
