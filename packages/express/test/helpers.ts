import { gzipSync } from "node:zlib";
import { sign } from "@tidings/core";
import { recordingReceiver as recording } from "../../../test/support/node-app";

export { listen, postBytes as post } from "../../../test/support/node-app";

export const SECRET = "whsec_express_tests";

/** A signed delivery. Its JSON keeps whitespace that re-serialising a parsed body would lose. */
export function signedDelivery(id: string, options: { gzip?: boolean; pad?: number } = {}) {
  const signed = Buffer.from(
    `{ "id": "${id}",  "type": "message.sent", "data": { "id": "msg_1" }, "pad": "${"x".repeat(options.pad ?? 0)}" }`,
  );
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "service-signature": sign(signed, SECRET),
  };
  if (!options.gzip) return { body: signed, headers, signed };
  return { body: gzipSync(signed), headers: { ...headers, "content-encoding": "gzip" }, signed };
}

export const recordingReceiver = (options: { maxBodyBytes?: number } = {}) => recording(SECRET, options);
