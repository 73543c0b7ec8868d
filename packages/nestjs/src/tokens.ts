/**
 * Injects the Receiver of `TidingsModule.forRoot()`: `constructor(@Inject(TIDINGS_RECEIVER) receiver: Receiver)`.
 *
 * @example
 * ```ts
 * import { Inject, Injectable, type OnModuleInit } from "@nestjs/common";
 * import type { Receiver } from "@tidings/core";
 * import { TIDINGS_RECEIVER } from "@tidings/nestjs";
 *
 * @Injectable()
 * export class WebhookErrors implements OnModuleInit {
 *   constructor(@Inject(TIDINGS_RECEIVER) private readonly receiver: Receiver) {}
 *
 *   onModuleInit() {
 *     this.receiver.onError((error, { code, status }) => console.error(`webhook ${status} ${code}`, error));
 *   }
 * }
 * ```
 */
export const TIDINGS_RECEIVER = Symbol.for("@tidings/nestjs receiver");
