import { createReceiver, type SecretRequest } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import express, { type Express } from "express";
import type { Pool } from "pg";
import { formatEvent, MESSAGE_EVENT_TYPES, messageNotFound } from "../shared/message-log";
import { AccountMessages } from "./accounts";
import { secretsOf } from "./secrets";

export interface MultiEndpointOptions {
  /** Where `webhook_secrets` is (see secrets.ts). */
  pool: Pool;
  /** Where each account's message statuses are kept. Default: new, empty ones. */
  messages?: AccountMessages;
  /** Where the one-line event log goes. Default: `console.log`. */
  log?: (line: string) => void;
  /** The Receiver's clock, Unix ms (default `Date.now`): what a secret's `not_after` is compared with. */
  now?: () => number;
}

/** The receiver app, not yet listening: `POST /webhooks/:account`, `GET /accounts/:account/messages/:id`. */
export function createApp({
  pool,
  messages = new AccountMessages(),
  log = console.log,
  now,
}: MultiEndpointOptions): Express {
  // Asked per delivery, after the signature header's cheap checks: the account's secrets, or none (404).
  const secret = async ({ params }: SecretRequest) => {
    const account = params.account;
    if (account === undefined) return undefined;
    const secrets = await secretsOf(pool, account);
    return secrets.length === 0 ? undefined : { secret: secrets, endpoint: account };
  };
  const receiver = createReceiver({ secret, ...(now && { now }) })
    .on(MESSAGE_EVENT_TYPES, (event, { endpoint }) => {
      const account = endpoint as string;
      messages.of(account).record(event);
      log(`${account}  ${formatEvent(event)}`);
    })
    .onError((error, { code, status }) => {
      // 5xx only (a database down is `secret_unavailable`): 4xx are the sender's or a stranger's problem.
      if (status >= 500) log(`${code} (${status}): ${error instanceof Error ? error.message : String(error)}`);
    });

  const app = express();
  // Before any body parser: the webhook reads the exact bytes that were signed. `all` lets it answer 405 to GET etc.
  app.all("/webhooks/:account", webhookMiddleware(receiver));
  app.use(express.json());

  app.get("/accounts/:account/messages/:id", (req, res) => {
    const record = messages.find(req.params.account)?.get(req.params.id);
    if (record) res.json(record);
    else res.status(404).json(messageNotFound(req.params.id));
  });
  return app;
}
