import { type ApiError, apiError } from "./errors";
import { TEST_KEY_PREFIX } from "./rules";

const CHALLENGE = { "www-authenticate": 'Bearer realm="tidings emulator"' };

const unauthorized = (code: string, message: string): ApiError => ({
  ...apiError(401, code, message),
  headers: CHALLENGE,
});

/** `Authorization: Bearer sk_test_…` → the key; anything else → a 401. */
export function authenticate(header: string | undefined): { key: string } | { error: ApiError } {
  if (header === undefined || header.trim() === "") {
    return { error: unauthorized("missing_api_key", `Send "Authorization: Bearer ${TEST_KEY_PREFIX}…".`) };
  }
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match?.[1]) {
    return {
      error: unauthorized("invalid_authorization", `The Authorization header must be "Bearer <API_KEY>".`),
    };
  }
  const key = match[1];
  if (!key.startsWith(TEST_KEY_PREFIX) || key.length === TEST_KEY_PREFIX.length) {
    return {
      error: unauthorized(
        "invalid_api_key",
        `The emulator accepts only test-mode keys, which start with "${TEST_KEY_PREFIX}"; never use a live key here.`,
      ),
    };
  }
  return { key };
}
