/** Name of the header that carries `t=<unix seconds>,v1=<hex HMAC-SHA256>`. Header names are case-insensitive. */
export const SIGNATURE_HEADER = "service-signature";

/** Deliveries older or newer than this many seconds are rejected (docs/sender-contract.md, Tolerance). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Hostile headers are rejected before any per-pair work is done. */
export const MAX_SIGNATURE_HEADER_LENGTH = 8192;
export const MAX_SIGNATURE_HEADER_PAIRS = 32;
