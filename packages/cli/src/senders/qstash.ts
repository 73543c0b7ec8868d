import { json, type SenderSample } from "./sample";

/**
 * A message as Upstash QStash delivers it: the body the app published (QStash adds no envelope), typed `message`; the
 * `Upstash-Message-Id` its `sign` writes is `id`, the dedup key.
 */
export const qstash: SenderSample = () =>
  json(
    { task: "send-welcome-email", userId: "user_123", email: "ada@example.com" },
    { "upstash-retried": "0", "upstash-schedule-id": "scd_7Y5tbSNMQkZJvJpQVpzJqWqLRpAC" },
  );
