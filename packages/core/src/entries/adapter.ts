// `@tidings/core/adapter`: what adapter and store packages build on (the request and result types, body reading,
// limits, decoding, the Web handler, the claim types a DeliveryStore returns). Kept out of the main entry, which holds
// what an app uses; Node-only helpers are in `@tidings/core/node`.
export { bodyAlreadyConsumed } from "../body/consumed";
export { type ContentCoding, contentCodings, decodeBody } from "../body/content-encoding";
export { type BodyLimits, bodyTruncated, payloadTooLarge, withinLimit } from "../body/limits";
export { type ReadBodyOptions, readRequestBody } from "../body/web-request";
export { type RequestTarget, type TargetSource, targetOf } from "../endpoint/request-target";
export { type HeaderSource, headerValue } from "../http/headers";
export type { ReceiveResult } from "../http/result";
export type { DeliverySlot } from "../receiver/admission";
export type { InTransaction } from "../receiver/handlers";
export type { IncomingDelivery, IncomingRequest } from "../receiver/incoming";
export { calledUrl, handleWebRequest } from "../serve/web";
export type { ClaimResult, ObjectPosition, OrderedClaimResult } from "../store/delivery-store";
export type { TransactionalStore, TransactionStatements, Transactions } from "../store/transactions";
