// `@tidings/core/adapter`: what adapter packages build on (body reading, limits, decoding, the Web handler). Kept out
// of the main entry, which holds what an app uses; Node-only helpers are in `@tidings/core/node`.
export { bodyAlreadyConsumed } from "../body/consumed";
export {
  type ContentCoding,
  contentCodings,
  decodeBody,
  MAX_CONTENT_CODINGS,
  MAX_DECODED_RATIO,
} from "../body/content-encoding";
export { bodyTruncated, payloadTooLarge, withinLimit } from "../body/limits";
export { type ReadBodyOptions, readRequestBody } from "../body/web-request";
export { pathOfUrl, type RequestTarget, type TargetSource, targetOf } from "../endpoint/request-target";
export { headerValue } from "../http/headers";
export { handleWebRequest } from "../http/web";
