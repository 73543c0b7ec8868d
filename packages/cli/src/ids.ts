import { randomBytes } from "node:crypto";

/** `prefix` + 24 random hex digits: `evt_…`, `msg_…`, `req_…`. */
export function randomId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString("hex")}`;
}
