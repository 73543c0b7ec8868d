// `npm run demo`: the emulated service in test mode delivers signed webhooks to the Express example receiver.
import type { AddressInfo } from "node:net";
import { startEmulator } from "@tidings/cli";
import { messageStatusOrder } from "@tidings/core";
import { createApp } from "../examples/express/app";

const SECRET = `whsec_demo_${Math.random().toString(36).slice(2)}`;
const API_KEY = "sk_test_demo";
const TIMEOUT_MS = 30_000;
const MESSAGES = [
  { channel: "sms", to: "+15551234567", body: "Your code is 123456", expect: "delivered" },
  { channel: "email", to: "ada@example.com", body: "Welcome aboard", expect: "delivered" },
  { channel: "push", to: "device_token_42", body: "Your order shipped", expect: "delivered" },
  { channel: "sms", to: "+15005550001", body: "This recipient always fails", expect: "failed" },
] as const;

const started = Date.now();
const timeline: string[] = [];
const note = (source: string, line: string) => {
  const entry = `+${String(Date.now() - started).padStart(5)} ms  ${source.padEnd(8)}  ${line}`;
  timeline.push(entry);
  console.log(entry);
};

// The service reorders and duplicates events here, as real senders do; `order` keeps each message's statuses in order.
const CHAOS = { reorder: 1, duplicates: 0.5, seed: 7 };
const POSITION: Record<string, number> = {
  "message.queued": 1,
  "message.sent": 2,
  "message.delivered": 3,
  "message.failed": 3,
};
const receiver = createApp({ secret: SECRET, order: messageStatusOrder, log: (line) => note("receiver", line) });
const server = receiver.listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
const emulator = await startEmulator({
  webhookUrl,
  secret: SECRET,
  chaos: CHAOS,
  log: (line) => note("service", line),
});
note("demo", `service emulator on ${emulator.url}, Express receiver on ${webhookUrl}`);

const ids: { id: string; expect: string; channel: string }[] = [];
for (const message of MESSAGES) {
  const response = await fetch(`${emulator.url}/v3/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${API_KEY}`, "idempotency-key": `demo-${ids.length}-${started}` },
    body: new URLSearchParams({ channel: message.channel, to: message.to, body: message.body }),
  });
  const accepted = (await response.json()) as { id: string; status: string };
  note("demo", `POST /v3/messages ${message.channel} to ${message.to}: ${response.status} ${JSON.stringify(accepted)}`);
  ids.push({ id: accepted.id, expect: message.expect, channel: message.channel });
}

interface MessageRecord {
  status: string;
  events: string[];
}
const receiverBase = webhookUrl.replace(/\/webhooks$/, "");
async function lookUp(id: string): Promise<MessageRecord | undefined> {
  const response = await fetch(`${receiverBase}/messages/${id}`);
  return response.ok ? ((await response.json()) as MessageRecord) : undefined;
}
const isFinal = (record: MessageRecord | undefined) => record?.status === "delivered" || record?.status === "failed";
let records = await Promise.all(ids.map(({ id }) => lookUp(id)));
while (!records.every(isFinal) && Date.now() - started < TIMEOUT_MS) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  records = await Promise.all(ids.map(({ id }) => lookUp(id)));
}
await emulator.close();
server.close();

console.log("\nFinal statuses, as GET /messages/:id on the receiver reports them:");
let ok = true;
for (const [index, { id, expect, channel }] of ids.entries()) {
  const record = records[index];
  // What the handlers saw, in the order they ran: positions strictly increasing, a late or replayed event stale.
  const positions = record?.events.map((type) => POSITION[type] ?? 0) ?? [];
  const inOrder = positions.every((position, at) => at === 0 || position > (positions[at - 1] ?? 0));
  const arrived = record?.status === expect && inOrder;
  ok &&= arrived;
  const events = record?.events.join(" → ") ?? "nothing arrived";
  console.log(
    `  ${arrived ? "✓" : "✗"} ${id}  ${channel.padEnd(5)}  ${record?.status ?? "-"} (expected ${expect})  ${events}`,
  );
}
console.log(
  ok
    ? "\nEvery message reached its final status, its events handled in order despite the reordering and duplicates."
    : "\nSome deliveries did not arrive, or arrived out of order.",
);
process.exit(ok ? 0 : 1);
