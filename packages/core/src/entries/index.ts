export { type BodyLimits, DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES } from "../body/limits";
export type { RequestTarget, SecretRequest } from "../endpoint/request-target";
export type { ResolvedEndpoint, SecretResolver } from "../endpoint/secret-resolver";
export type { EndpointSecret, ExpiringSecret } from "../endpoint/secret-set";
export { type ReceiveErrorCode, STATUS_BY_CODE, type WebhookErrorCode, WebhookVerificationError } from "../errors";
export type { DeliveryEvent } from "../event";
export type { HeaderSource } from "../http/headers";
export type { OutcomeCode, ReceiveResult } from "../http/result";
export {
  type Channel,
  type EventMap,
  MESSAGE_EVENT_TYPES,
  type MessageEvent,
  type MessageEventData,
  type MessageEvents,
} from "../receiver/events";
export type { AnyEvent, DeliveryContext, DeliveryInfo, Handler } from "../receiver/handlers";
export type { LogLine } from "../receiver/logger";
export {
  DEFAULT_DONE_TTL_MS,
  DEFAULT_HANDLER_TIMEOUT_MS,
  DEFAULT_LEASE_MS,
  DEFAULT_RESOLVER_TIMEOUT_MS,
  type EventSchemas,
  type Logger,
  type ReceiverOptions,
} from "../receiver/options";
export { DEFAULT_ORDER_WAIT_MS, type EventOrder, messageStatusOrder } from "../receiver/order";
export type { DeliveryOutcome, HandlerRun, OutcomeListener } from "../receiver/outcome";
export {
  createReceiver,
  type ErrorHandler,
  type IncomingDelivery,
  type IncomingRequest,
  type ReceiveErrorInfo,
  Receiver,
} from "../receiver/receiver";
export type { StandardSchemaV1 } from "../receiver/standard-schema";
export type { Scheme, SchemeSignOptions } from "../schemes/scheme";
export type { ClaimResult, DeliveryStore, ObjectPosition, OrderedClaimResult } from "../store/delivery-store";
export {
  DEFAULT_MAX_ENTRIES,
  MemoryStore,
  MemoryStoreFullError,
  type MemoryStoreOptions,
} from "../store/memory-store";
export { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER } from "../verification/constants";
export { constructEvent, constructEventAsync } from "../verification/construct-event";
export type { RawPayload } from "../verification/payload";
export type { Secret } from "../verification/secrets";
export { type SignOptions, sign } from "../verification/sign";
export { parseSignatureHeader, type SignatureHeader } from "../verification/signature-header";
export type { SafeVerifyResult, VerifyResult } from "../verification/signed-delivery";
export type { VerifyOptions } from "../verification/tolerance";
export { safeVerify, verify } from "../verification/verify";
export { safeVerifyAsync, verifyAsync } from "../verification/verify-async";
