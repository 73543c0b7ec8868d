export type WebhookErrorCode =
  | "missing_header"
  | "malformed_header"
  | "no_supported_signature"
  | "signature_mismatch"
  | "timestamp_too_old"
  | "timestamp_in_future"
  | "invalid_payload"
  | "payload_too_large"
  | "body_already_parsed"
  | "body_truncated"
  | "unsupported_encoding"
  | "body_timeout";

export const STATUS_BY_CODE: Readonly<Record<WebhookErrorCode, number>> = {
  missing_header: 400,
  malformed_header: 400,
  no_supported_signature: 400,
  signature_mismatch: 400,
  timestamp_too_old: 400,
  timestamp_in_future: 400,
  invalid_payload: 400,
  payload_too_large: 413,
  // The app mounted us behind a body parser: a server misconfiguration, not the sender's fault.
  body_already_parsed: 500,
  body_truncated: 400,
  unsupported_encoding: 415,
  // The client sent the body too slowly (bodyTimeoutMs): a slow-drip request must not hold a connection for ever.
  body_timeout: 408,
};

/** Every way a delivery can be refused. `status` is the HTTP status an adapter answers with. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  readonly code: WebhookErrorCode;
  readonly status: number;

  /** Facts for the app's logs and `onError`, kept out of `message`, which the sender sees. */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: WebhookErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Readonly<Record<string, unknown>> },
  ) {
    super(message, options);
    this.code = code;
    this.status = STATUS_BY_CODE[code];
    this.details = options?.details;
  }
}
