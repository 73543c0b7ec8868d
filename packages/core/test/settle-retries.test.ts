import { describe, expect, it } from "vitest";
import { createReceiver, type DeliveryStore, MemoryStore, type ReceiveErrorInfo, sign } from "../src/entries";

const SECRET = "whsec_settle_retries";

function delivery() {
  const rawBody = new TextEncoder().encode(JSON.stringify({ id: "evt_1", type: "message.sent" }));
  return { rawBody, headers: { "service-signature": sign(rawBody, SECRET) } };
}

describe("settling a delivery after its handlers ran", () => {
  it("tries a store that threw at once again, as one that rejected, and marks the delivery done", async () => {
    const memory = new MemoryStore();
    let failures = 1;
    const store: DeliveryStore = {
      claim: (key, leaseMs) => memory.claim(key, leaseMs),
      release: (key, token) => memory.release(key, token),
      complete(key, token, ttlMs) {
        if (failures-- > 0) throw new Error("connection reset");
        return memory.complete(key, token, ttlMs);
      },
    };
    const reported: ReceiveErrorInfo[] = [];
    let runs = 0;
    const receiver = createReceiver({ secret: SECRET, store })
      .onAny(() => {
        runs++;
      })
      .onError((_error, info) => {
        reported.push(info);
      });
    expect((await receiver.receive(delivery())).code).toBe("accepted");
    expect(reported).toEqual([]);
    expect((await receiver.receive(delivery())).code).toBe("duplicate");
    expect(runs).toBe(1);
  });
});
