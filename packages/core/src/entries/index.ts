// `@tidings/core`: what an app uses. Adapter and store authors find the request, result and claim types in
// `@tidings/core/adapter`; each sender's scheme is in `@tidings/core/schemes`.
export { DEFAULTS } from "../defaults";
export type { SecretRequest } from "../endpoint/request-target";
export type { ResolvedEndpoint, SecretResolver } from "../endpoint/secret-resolver";
export type { ExpiringSecret } from "../endpoint/secret-set";
export { type ErrorCode, STATUS_BY_CODE, WebhookVerificationError } from "../errors";
export type { DeliveryEvent } from "../event";
export { type EventMap, MESSAGE_EVENT_TYPES, type MessageEvent, type MessageEvents } from "../event-map";
export type { ErrorListener } from "../receiver/dispatcher";
export type { ReceiveErrorInfo } from "../receiver/error-info";
export type { DeliveryContext, Handler } from "../receiver/handlers";
export type { Logger, ReceiverOptions } from "../receiver/options";
export { type EventOrder, messageStatusOrder } from "../receiver/order";
export type { DeliveryOutcome, OutcomeListener } from "../receiver/outcome";
export { createReceiver, Receiver } from "../receiver/receiver";
export type { DeliveryStore } from "../store/delivery-store";
export { MemoryStore, type MemoryStoreOptions } from "../store/memory-store";
export { SIGNATURE_HEADER } from "../verification/constants";
export { constructEvent, constructEventAsync } from "../verification/construct-event";
export type { Secret } from "../verification/secrets";
export { sign } from "../verification/sign";
export type { SafeVerifyResult, VerifyResult } from "../verification/signed-delivery";
export type { VerifyOptions } from "../verification/tolerance";
export { safeVerify, verify } from "../verification/verify";
export { safeVerifyAsync, verifyAsync } from "../verification/verify-async";
