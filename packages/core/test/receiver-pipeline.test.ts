import { describe, expect, it } from "vitest";
import { createReceiver, MemoryStore, type ReceiveErrorInfo, type Receiver, STATUS_BY_CODE } from "../src/entries";
import type { ReceiveResult } from "../src/entries/adapter";
import type { StandardSchemaV1 } from "../src/receiver/standard-schema";
import { bodyOf, event, quietLogger, SECRET, signed } from "./receiver-fixtures";

/** A Standard Schema validator whose `validate` throws: a bug in the app's schema, not a bad payload. */
const throwingSchema: StandardSchemaV1<unknown, object> = {
  "~standard": {
    version: 1,
    vendor: "test",
    validate() {
      throw new Error("validator bug");
    },
  },
};

const rejectingSchema: StandardSchemaV1<unknown, object> = {
  "~standard": { version: 1, vendor: "test", validate: () => Promise.reject(new Error("async validator bug")) },
};

// biome-ignore lint/suspicious/noExplicitAny: any Receiver, whatever its event map
async function answerAndReport(receiver: Receiver<any>, delivery = signed(event())) {
  const reports: ReceiveErrorInfo[] = [];
  receiver.onError((_error, info) => {
    reports.push(info);
  });
  const result: ReceiveResult = await receiver.receive(delivery);
  return { result, reports };
}

describe("the Receiver's pipeline", () => {
  it.each([
    ["throws", throwingSchema],
    ["rejects", rejectingSchema],
  ])("answers 500 internal_error, and never throws, when a schema's validator %s", async (_, schema) => {
    const receiver = createReceiver({ secret: SECRET, logger: quietLogger, schemas: { "message.delivered": schema } });
    let ran = 0;
    receiver.on("message.delivered", () => {
      ran++;
    });
    const { result, reports } = await answerAndReport(receiver);
    expect(result.status).toBe(500);
    expect(bodyOf(result).error?.code).toBe("internal_error");
    expect(result.body).not.toContain("validator bug");
    expect(reports.map(({ code, status }) => [code, status])).toEqual([["internal_error", 500]]);
    expect(ran).toBe(0);
  });

  it("answers 500 internal_error when idOf throws, before any claim is taken", async () => {
    const store = new MemoryStore();
    const receiver = createReceiver({
      secret: SECRET,
      store,
      logger: quietLogger,
      idOf: () => {
        throw new Error("idOf bug");
      },
    });
    const { result, reports } = await answerAndReport(receiver);
    expect([result.status, bodyOf(result).error?.code]).toEqual([500, "internal_error"]);
    expect(reports).toHaveLength(1);
    // Nothing was claimed: a fixed idOf handles the retry.
    const fixed = createReceiver({ secret: SECRET, store, logger: quietLogger });
    expect((await fixed.receive(signed(event()))).status).toBe(200);
  });

  it("tells onError the status each refusal was answered with, from the one code table", async () => {
    const cases: [string, () => Promise<{ result: ReceiveResult; reports: ReceiveErrorInfo[] }>][] = [
      ["signature_mismatch", () => answerAndReport(createReceiver({ secret: "whsec_other" }))],
      ["unknown_endpoint", () => answerAndReport(createReceiver({ secret: () => undefined, logger: quietLogger }))],
      [
        "secret_unavailable",
        () =>
          answerAndReport(
            createReceiver({
              secret: () => {
                throw new Error("database down");
              },
              logger: quietLogger,
            }),
          ),
      ],
      [
        "store_unavailable",
        () =>
          answerAndReport(
            createReceiver({
              secret: SECRET,
              logger: quietLogger,
              store: {
                claim: () => Promise.reject(new Error("redis down")),
                complete: () => true,
                release: () => true,
              },
            }),
          ),
      ],
      [
        "handler_failed",
        () =>
          answerAndReport(
            createReceiver({ secret: SECRET, logger: quietLogger }).on("message.delivered", () => {
              throw new Error("handler bug");
            }),
          ),
      ],
    ];
    for (const [code, run] of cases) {
      const { result, reports } = await run();
      expect(bodyOf(result).error?.code, code).toBe(code);
      expect(result.status).toBe(STATUS_BY_CODE[code as keyof typeof STATUS_BY_CODE]);
      expect(reports.map((report) => [report.code, report.status])).toEqual([[code, result.status]]);
    }
  });
});
