import { createReceiver, type DeliveryContext, type ReceiveErrorInfo, sign } from "@tidings/core";
import Fastify, { type FastifyInstance, type InjectOptions } from "fastify";
import { afterEach } from "vitest";

export const SECRET = "whsec_fastify";

/** Every app a test builds, closed after it. */
const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

export function newApp(): FastifyInstance {
  const app = Fastify();
  apps.push(app);
  return app;
}

/** A receiver that records the raw bodies its handler saw and the codes its onError heard. */
export function recordingReceiver(options: { secret?: string; maxBodyBytes?: number } = {}) {
  const receiver = createReceiver({ secret: SECRET, logger: { error() {} }, ...options });
  const seen: DeliveryContext[] = [];
  const errors: ReceiveErrorInfo["code"][] = [];
  receiver.onAny((_event, context) => {
    seen.push(context);
  });
  receiver.onError((_error, info) => errors.push(info.code));
  return { receiver, seen, errors };
}

export function eventBody(id = `evt_${Math.random().toString(36).slice(2)}`): Buffer {
  return Buffer.from(JSON.stringify({ id, type: "message.delivered", data: { id: "msg_1", status: "delivered" } }));
}

/** A signed POST for `app.inject()`: `signed` is what was signed, `payload` what goes over the wire. */
export function delivery(
  url: string,
  signed: Buffer,
  options: { secret?: string; payload?: Buffer; headers?: Record<string, string> } = {},
): InjectOptions {
  return {
    method: "POST",
    url,
    headers: {
      "content-type": "application/json",
      "service-signature": sign(signed, options.secret ?? SECRET),
      ...options.headers,
    },
    payload: options.payload ?? signed,
  };
}

export function errorOf(response: { body: string }): { code?: string; message?: string } | undefined {
  return (JSON.parse(response.body) as { error?: { code?: string; message?: string } }).error;
}
