import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createReceiver, type Logger, type Receiver, sign } from "@tidings/core";
import { webhookMiddleware } from "@tidings/express";
import { RedisStore } from "@tidings/redis";
import express from "express";
import { type Cluster, Redis } from "ioredis";
import type { RedisServer } from "../support/redis-server";
import { until } from "../support/wait";

export const SECRET = "whsec_cluster";
export const PREFIX = "cluster:";

export interface Instance {
  url: string;
  receiver: Receiver;
  client: Redis | Cluster;
  close(): Promise<void>;
}

/** A connection to the one Redis server the instances share. */
export const connectTo = (redis: RedisServer) => () =>
  new Redis({ host: "127.0.0.1", port: redis.port, maxRetriesPerRequest: 2, retryStrategy: () => 100 });

/** What a test may set on the instances' Receivers. */
export interface InstanceOptions {
  leaseMs?: number;
  logger?: Logger;
}

/** Two receiver instances, each with its own connection from `connect()`, sharing the Redis data. */
export async function startPair(connect: () => Redis | Cluster, options: InstanceOptions = {}) {
  return [await startInstance(connect, options), await startInstance(connect, options)] as const;
}

/** One receiver instance: its own Express app, port and Redis connection (`connect()`), sharing the Redis data. */
export async function startInstance(connect: () => Redis | Cluster, options: InstanceOptions = {}): Promise<Instance> {
  const client = connect();
  client.on("error", () => {}); // reconnection noise while a test stops Redis
  const store = new RedisStore({ client, prefix: PREFIX, operationTimeoutMs: 500 });
  const receiver = createReceiver({ secret: SECRET, store, logger: { error() {} }, ...options });
  const app = express();
  app.post("/webhooks", webhookMiddleware(receiver));
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    receiver,
    client,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      client.disconnect();
    },
  };
}

export function eventBody(id: string): string {
  return JSON.stringify({
    id,
    type: "message.delivered",
    data: { id: `msg_${id}`, status: "delivered", channel: "sms" },
  });
}

/** One delivery of an event, freshly signed as the sender does on every attempt. */
export async function deliver(url: string, body: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "service-signature": sign(body, SECRET) },
    body,
  });
  return { status: response.status, body: await response.text() };
}

/**
 * Delivers until the receiver says 2xx, as the service's retries would (409 and 5xx are retried). Each retry goes at
 * once: what it waits for (a handler on the other instance, a lease Redis ends, Redis coming back, a failover) paces
 * the answers. Gives up after `withinMs`.
 */
export async function deliverUntilAccepted(
  url: string,
  body: string,
  seen: number[] = [],
  withinMs = 60_000,
): Promise<string> {
  return until(
    async () => {
      const response = await deliver(url, body);
      seen.push(response.status);
      return response.status < 300 && response.body;
    },
    () => `a 2xx (last statuses ${seen.slice(-5).join(",")}) for ${body}`,
    { withinMs },
  );
}

/** Runs `tasks` with at most `limit` in flight. */
export async function inParallel<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

/** Counts handler runs per event id across every instance. */
export function countRuns(...receivers: Instance[]) {
  const runs = new Map<string, number>();
  for (const { receiver } of receivers) {
    receiver.on("message.delivered", async (event) => {
      await new Promise((resolve) => setImmediate(resolve)); // let the other copies arrive meanwhile
      runs.set(event.id as string, (runs.get(event.id as string) ?? 0) + 1);
    });
  }
  return runs;
}
