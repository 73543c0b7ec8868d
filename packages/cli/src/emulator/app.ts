import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { randomId } from "../ids";
import { authenticate } from "./auth";
import type { AcceptedMessage } from "./deliverer";
import { type ApiError, apiError, errorBody } from "./errors";
import { checkIdempotencyKey, fingerprint, type IdempotencyStore } from "./idempotency";
import { FAILING_RECIPIENTS, MAX_REQUEST_BYTES } from "./rules";
import { validateMessage } from "./validation";

export const REQUEST_ID_HEADER = "Service-Request-Id";
/** Set on a response that replays the first response to the same Idempotency-Key. */
export const REPLAYED_HEADER = "Idempotent-Replayed";

export interface AppOptions {
  idempotency: IdempotencyStore;
  onAccepted: (message: AcceptedMessage) => void;
  log: (line: string) => void;
}

type Env = { Variables: { detail: string } };

function fail(c: Context<Env>, error: ApiError): Response {
  c.set("detail", error.field ? `${error.code} (${error.field})` : error.code);
  return c.json(errorBody(error), error.status as 400, error.headers);
}

function isForm(contentType: string | undefined): boolean {
  return contentType?.split(";")[0]?.trim().toLowerCase() === "application/x-www-form-urlencoded";
}

/** The emulated API: `POST /v3/messages` in test mode. Every response carries `Service-Request-Id`. */
export function createApp({ idempotency, onAccepted, log }: AppOptions): Hono<Env> {
  const app = new Hono<Env>();

  app.use(async (c, next) => {
    const requestId = randomId("req_");
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, requestId);
    const detail = c.get("detail");
    log(`${c.req.method} ${c.req.path} ${c.res.status}${detail ? ` ${detail}` : ""} ${requestId}`);
  });

  const limit = bodyLimit({
    maxSize: MAX_REQUEST_BYTES,
    onError: (c) => {
      // The rest of the body is not read: the connection cannot carry another request.
      c.header("connection", "close");
      return fail(c, apiError(413, "payload_too_large", `The request body is over ${MAX_REQUEST_BYTES} bytes.`));
    },
  });

  app.post("/v3/messages", limit, async (c) => {
    const auth = authenticate(c.req.header("authorization"));
    if ("error" in auth) return fail(c, auth.error);
    if (!isForm(c.req.header("content-type"))) {
      return fail(
        c,
        apiError(415, "unsupported_media_type", "Send the fields form-encoded (application/x-www-form-urlencoded)."),
      );
    }
    const form = new URLSearchParams(await c.req.text());
    const key = c.req.header("idempotency-key");
    const requestFingerprint = fingerprint(form);
    if (key !== undefined) {
      const keyError = checkIdempotencyKey(key);
      if (keyError) return fail(c, keyError);
      const previous = idempotency.lookup(auth.key, key, requestFingerprint);
      if (previous.kind === "conflict") {
        return fail(
          c,
          apiError(
            409,
            "idempotency_key_reused",
            "This Idempotency-Key was already used with a different request body.",
          ),
        );
      }
      if (previous.kind === "replay") {
        c.set("detail", "replayed");
        return c.body(previous.response.body, previous.response.status as 202, {
          "content-type": "application/json",
          [REPLAYED_HEADER]: "true",
        });
      }
    }
    const result = validateMessage(form);
    if ("error" in result) return fail(c, result.error);
    const { channel, to } = result.message;
    const id = randomId("msg_");
    const body = JSON.stringify({ id, status: "queued" });
    if (key !== undefined) idempotency.remember(auth.key, key, requestFingerprint, { status: 202, body });
    c.set("detail", `${id} (${channel} to ${to})`);
    onAccepted({ id, channel, fails: to === FAILING_RECIPIENTS[channel] });
    return c.body(body, 202, { "content-type": "application/json" });
  });

  app.all("/v3/messages", (c) => {
    c.header("allow", "POST");
    return fail(c, apiError(405, "method_not_allowed", "Use POST /v3/messages."));
  });
  app.notFound((c) => fail(c, apiError(404, "not_found", `No route ${c.req.method} ${c.req.path} in the emulator.`)));
  app.onError((error, c) => {
    log(`internal error: ${error.message}`);
    return fail(c, apiError(500, "internal_error", "The emulator failed on this request."));
  });
  return app;
}
