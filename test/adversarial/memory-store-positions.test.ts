import { createReceiver, DEFAULTS, MemoryStore, type MessageEvents, messageStatusOrder, sign } from "@tidings/core";
import { describe, expect, it } from "vitest";

const SECRET = "whsec_positions";
const TOLERANCE_MS = 300_000;

describe("MemoryStore positions under pressure, through a Receiver with `order`", () => {
  it("never forgets a handled position before doneTtlMs: a late older status is stale, new objects get store_full", async () => {
    const clock = { ms: 1_800_000_000_000 };
    const now = () => clock.ms;
    const store = new MemoryStore({ maxEntries: 2, now, logger: { error() {}, warn() {} } });
    const receiver = createReceiver({ secret: SECRET, store, now, order: messageStatusOrder, logger: { error() {} } });
    const seen: string[] = [];
    receiver.on(["message.queued", "message.sent", "message.delivered"], (event) => {
      seen.push(`${event.data.id} ${event.type}`);
    });
    const deliver = async (id: string, message: string, type: keyof MessageEvents) => {
      const payload = { id, type, data: { id: message, status: type.slice("message.".length), channel: "sms" } };
      const rawBody = new TextEncoder().encode(JSON.stringify(payload));
      const headers = { "service-signature": sign(rawBody, SECRET, { timestamp: Math.floor(clock.ms / 1000) }) };
      return (await receiver.receive({ rawBody, headers })).code;
    };

    expect(await deliver("evt_a3", "msg_a", "message.delivered")).toBe("accepted");
    expect(await deliver("evt_b3", "msg_b", "message.delivered")).toBe("accepted");
    // Past the tolerance, the done keys may make room; the positions, kept for doneTtlMs, may not.
    clock.ms += TOLERANCE_MS + 1000;
    expect(await deliver("evt_c1", "msg_c", "message.queued")).toBe("store_full");
    // Refused, not left in flight: its retry is refused again, not answered 409.
    expect(await deliver("evt_c1", "msg_c", "message.queued")).toBe("store_full");
    // The sender's late retry of an older status: it must not regress msg_a.
    expect(await deliver("evt_a2", "msg_a", "message.sent")).toBe("stale");
    expect(await deliver("evt_b2", "msg_b", "message.sent")).toBe("stale");
    // Once the positions are past their TTL, new objects get in.
    clock.ms += DEFAULTS.doneTtlMs;
    expect(await deliver("evt_c1", "msg_c", "message.queued")).toBe("accepted");
    expect(seen).toEqual(["msg_a message.delivered", "msg_b message.delivered", "msg_c message.queued"]);
  });
});
