import { Controller, Get, Inject, Injectable, Module, NotFoundException, Param } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { ExpressAdapter } from "@nestjs/platform-express";
import { FastifyAdapter } from "@nestjs/platform-fastify";
import { createReceiver } from "@tidings/core";
import { OnDelivery, TidingsModule } from "@tidings/nestjs";
import type { AppOptions } from "../shared/config";
import {
  formatEvent,
  MESSAGE_EVENT_TYPES,
  type MessageEvent,
  MessageLog,
  messageNotFound,
} from "../shared/message-log";

const EVENT_LOG = Symbol("event log");

@Injectable()
class MessageStatuses {
  constructor(
    @Inject(MessageLog) private readonly messages: MessageLog,
    @Inject(EVENT_LOG) private readonly log: (line: string) => void,
  ) {}

  @OnDelivery(MESSAGE_EVENT_TYPES)
  record(event: MessageEvent) {
    this.messages.record(event);
    this.log(formatEvent(event));
  }
}

@Controller("messages")
class MessagesController {
  constructor(@Inject(MessageLog) private readonly messages: MessageLog) {}

  @Get(":id")
  find(@Param("id") id: string) {
    const record = this.messages.get(id);
    if (!record) throw new NotFoundException(messageNotFound(id));
    return record;
  }
}

/** The receiver app on Express (Nest's default) or Fastify, not yet listening: `(await createApp({ secret })).listen(3000)`. */
export async function createApp(
  { secret, messages = new MessageLog(), log = console.log }: AppOptions,
  platform: "express" | "fastify" = "express",
) {
  @Module({
    // The module mounts POST /webhooks ahead of Nest's body parsers; every other route keeps them.
    imports: [TidingsModule.forRoot({ receiver: createReceiver({ secret }), path: "/webhooks" })],
    controllers: [MessagesController],
    providers: [MessageStatuses, { provide: MessageLog, useValue: messages }, { provide: EVENT_LOG, useValue: log }],
  })
  class AppModule {}

  const adapter = platform === "fastify" ? new FastifyAdapter() : new ExpressAdapter();
  return NestFactory.create(AppModule, adapter, { logger: ["error", "warn"] });
}
