import type { EventOrder, MessageEvents, Secret } from "@tidings/core";
import type { MessageLog } from "./message-log";

/** What every example's `createApp()` takes. */
export interface AppOptions {
  /** The endpoint secret, or several while rotating it. */
  secret: Secret;
  /** Where message statuses are kept. Default: a new, empty `MessageLog`. */
  messages?: MessageLog;
  /** Where the one-line event log goes. Default: `console.log`. */
  log?: (line: string) => void;
  /** Per message, events one at a time and never an older status after a newer one (`messageStatusOrder`); the Express
   * example, which `npm run demo` runs, passes it to its Receiver. */
  order?: EventOrder<MessageEvents>;
}

export interface ListenConfig {
  port: number;
  host: string;
}

export interface ServerConfig extends ListenConfig {
  secret: string;
}

/** Reads WEBHOOK_SECRET, PORT (default 3000) and HOST (default 127.0.0.1); exits with a message if one is unusable. */
export function serverConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const secret = env.WEBHOOK_SECRET;
  if (!secret) {
    fail(
      "WEBHOOK_SECRET is not set. Start the example with the webhook endpoint's secret, e.g. WEBHOOK_SECRET=whsec_test",
    );
  }
  return { secret, ...listenConfig(env) };
}

/** Reads PORT (default 3000) and HOST (default 127.0.0.1); exits with a message if PORT is unusable. */
export function listenConfig(env: NodeJS.ProcessEnv = process.env): ListenConfig {
  const port = Number(env.PORT || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`PORT must be a port number, not "${env.PORT}".`);
  return { port, host: env.HOST || "127.0.0.1" };
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
