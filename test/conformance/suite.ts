import { createReceiver, type DeliveryContext, type ReceiverOptions } from "@tidings/core";
import { afterEach, describe, expect, it } from "vitest";
import { delivery, ENCODERS, eventBody, SECRET } from "./deliveries";
import { describeRequestUrls } from "./request-urls";
import { describeSchemes } from "./schemes";
import { type AnyReceiver, type ConformanceTarget, type RunningApp, WEBHOOK_PATH, type WireResponse } from "./target";

type Options = Partial<ReceiverOptions<Record<string, object>>>;

function partial(app: RunningApp): NonNullable<RunningApp["sendPartial"]> {
  if (!app.sendPartial) throw new Error("this target streams the body, so it must be able to send part of one");
  return app.sendPartial.bind(app);
}

function errorCode(response: WireResponse): string | undefined {
  return (JSON.parse(response.body) as { error?: { code?: string } }).error?.code;
}

/** Runs the behaviour every adapter must share, end to end, against one target. */
export function describeConformance(target: ConformanceTarget): void {
  describe(`${target.name} conformance`, () => {
    const running: RunningApp[] = [];
    afterEach(async () => {
      await Promise.all(running.splice(0).map((app) => app.close()));
    });

    async function start(receiver: AnyReceiver, parsedFirst = false): Promise<RunningApp> {
      const app = await (parsedFirst ? target.startWithBodyParsedFirst(receiver) : target.start(receiver));
      running.push(app);
      return app;
    }

    /** A receiver that records what its handlers saw. */
    function recordingReceiver(options: Options = {}) {
      const seen: { type: string; event: unknown; context: DeliveryContext }[] = [];
      const any: string[] = [];
      const receiver = createReceiver({ secret: SECRET, logger: { error() {} }, ...options });
      receiver.on(["message.delivered", "message.sent"], (event, context) => {
        seen.push({ type: context.type, event, context });
      });
      receiver.onAny((_event, context) => {
        any.push(context.type);
      });
      return { receiver, seen, any };
    }

    it("accepts a valid delivery and hands the handler the parsed event", async () => {
      const { receiver, seen } = recordingReceiver();
      const app = await start(receiver);
      const body = eventBody({ id: "evt_valid", messageId: "msg_valid" });
      const response = await app.send(delivery(body));
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body)).toEqual({ received: true });
      expect(seen).toHaveLength(1);
      expect(seen[0]?.event).toMatchObject({ id: "evt_valid", data: { id: "msg_valid", status: "delivered" } });
      expect(seen[0]?.context.deliveryKey).toBe("event:evt_valid");
      expect(Buffer.from(seen[0]?.context.verifiedBody ?? []).equals(Buffer.from(body))).toBe(true);
    });

    it("accepts the new secret during a rotation and reports which one matched", async () => {
      const { receiver, seen } = recordingReceiver({ secret: ["whsec_old", "whsec_new"] });
      const app = await start(receiver);
      const response = await app.send(delivery(eventBody(), { secret: "whsec_new" }));
      expect(response.status).toBe(200);
      expect(seen[0]?.context.secretIndex).toBe(1);
    });

    it("accepts a header with two v1 values when one matches", async () => {
      const { receiver, seen } = recordingReceiver();
      const app = await start(receiver);
      const body = eventBody();
      const valid = delivery(body).headers["service-signature"] as string;
      const [t, v1] = valid.split(",");
      const response = await app.send(delivery(body, { signature: `${t},v1=${"0".repeat(64)},${v1}` }));
      expect(response.status).toBe(200);
      expect(seen).toHaveLength(1);
    });

    it("rejects a tampered body without leaking the expected signature", async () => {
      const { receiver, seen } = recordingReceiver();
      const app = await start(receiver);
      const body = eventBody({ messageId: "msg_original" });
      const tampered = eventBody({ messageId: "msg_tampered" });
      const response = await app.send(delivery(body, { sendBody: tampered }));
      expect(response.status).toBe(400);
      expect(errorCode(response)).toBe("signature_mismatch");
      const expectedForTampered = delivery(tampered).headers["service-signature"]?.split("v1=")[1] as string;
      expect(response.body).not.toContain(expectedForTampered);
      expect(response.body).not.toContain(SECRET);
      expect(seen).toHaveLength(0);
    });

    it("rejects a delivery signed with another secret", async () => {
      const { receiver, seen } = recordingReceiver();
      const app = await start(receiver);
      const response = await app.send(delivery(eventBody(), { secret: "whsec_someone_else" }));
      expect([response.status, errorCode(response)]).toEqual([400, "signature_mismatch"]);
      expect(seen).toHaveLength(0);
    });

    it("rejects stale and future deliveries", async () => {
      const { receiver, seen } = recordingReceiver();
      const app = await start(receiver);
      const now = Math.floor(Date.now() / 1000);
      const stale = await app.send(delivery(eventBody(), { timestamp: now - 330 }));
      expect([stale.status, errorCode(stale)]).toEqual([400, "timestamp_too_old"]);
      const future = await app.send(delivery(eventBody(), { timestamp: now + 330 }));
      expect([future.status, errorCode(future)]).toEqual([400, "timestamp_in_future"]);
      expect(seen).toHaveLength(0);
    });

    it("rejects a missing and a malformed signature header", async () => {
      const { receiver, seen } = recordingReceiver();
      const app = await start(receiver);
      const missing = delivery(eventBody());
      delete missing.headers["service-signature"];
      const missingResponse = await app.send(missing);
      expect([missingResponse.status, errorCode(missingResponse)]).toEqual([400, "missing_header"]);
      const malformed = await app.send(delivery(eventBody(), { signature: "t=soon,v1=abc" }));
      expect([malformed.status, errorCode(malformed)]).toEqual([400, "malformed_header"]);
      expect(seen).toHaveLength(0);
    });

    it("rejects a validly signed body that is not JSON", async () => {
      const { receiver, seen } = recordingReceiver();
      const app = await start(receiver);
      const response = await app.send(delivery(new TextEncoder().encode("not json at all")));
      expect([response.status, errorCode(response)]).toEqual([400, "invalid_payload"]);
      expect(seen).toHaveLength(0);
    });

    it("refuses a body over the limit with 413", async () => {
      const { receiver, seen } = recordingReceiver({ maxBodyBytes: 1024 });
      const app = await start(receiver);
      const padded = new TextEncoder().encode(JSON.stringify({ type: "message.sent", pad: "x".repeat(4096) }));
      const response = await app.send(delivery(padded));
      expect([response.status, errorCode(response)]).toEqual([413, "payload_too_large"]);
      expect(seen).toHaveLength(0);
    });

    it.skipIf(!target.fetchInProcess)(
      "refuses a Request built by code after reading no more than a chunk past the limit, whatever its Content-Length says",
      async () => {
        const { receiver, seen } = recordingReceiver({ maxBodyBytes: 64 * 1024 });
        const fetchInProcess = target.fetchInProcess?.(receiver) as (request: Request) => Promise<Response>;
        const chunk = 16 * 1024;
        let pulled = 0;
        const huge = new ReadableStream<Uint8Array>(
          {
            pull(controller) {
              if (pulled >= 64 * 1024 * 1024) return controller.close();
              pulled += chunk;
              controller.enqueue(new Uint8Array(chunk).fill(0x20));
            },
          },
          { highWaterMark: 0 },
        );
        const { headers } = delivery(eventBody());
        const init = { method: "POST", headers: { ...headers, "content-length": "10" }, body: huge, duplex: "half" };
        const response = await fetchInProcess(new Request(`http://127.0.0.1${WEBHOOK_PATH}`, init as RequestInit));
        const answer = { status: response.status, headers: {}, body: await response.text() };
        expect([answer.status, errorCode(answer)]).toEqual([413, "payload_too_large"]);
        expect(pulled).toBeLessThanOrEqual(64 * 1024 + chunk);
        expect(seen).toHaveLength(0);
      },
    );

    it("answers a replay of the same request as a duplicate without running the handler again", async () => {
      const { receiver, seen } = recordingReceiver();
      const app = await start(receiver);
      const request = delivery(eventBody({ id: "evt_replayed" }));
      expect((await app.send(request)).status).toBe(200);
      const replay = await app.send(request);
      expect(replay.status).toBe(200);
      expect(JSON.parse(replay.body)).toEqual({ received: true, duplicate: true });
      expect(seen).toHaveLength(1);
    });

    it("answers 409 to the same event while its first delivery is still being handled", async () => {
      const receiver = createReceiver({ secret: SECRET, logger: { error() {} } });
      let release: () => void = () => {};
      let started: () => void = () => {};
      const handlerStarted = new Promise<void>((resolve) => {
        started = resolve;
      });
      let runs = 0;
      receiver.on("message.delivered", async () => {
        runs++;
        started();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      });
      const app = await start(receiver);
      const body = eventBody({ id: "evt_concurrent" });
      const first = app.send(delivery(body));
      await handlerStarted;
      const second = await app.send(delivery(body));
      expect([second.status, errorCode(second)]).toEqual([409, "delivery_in_progress"]);
      release();
      expect((await first).status).toBe(200);
      expect(runs).toBe(1);
    });

    it("answers 500 when a handler throws, keeps the event unprocessed, and runs it on the retry", async () => {
      const receiver = createReceiver({ secret: SECRET, logger: { error() {} } });
      let attempts = 0;
      const errors: string[] = [];
      receiver.on("message.delivered", () => {
        attempts++;
        if (attempts === 1) throw new Error("database down");
      });
      receiver.onError((_error, info) => errors.push(info.code));
      const app = await start(receiver);
      const request = delivery(eventBody({ id: "evt_retry" }));
      const failed = await app.send(request);
      expect([failed.status, errorCode(failed)]).toEqual([500, "handler_failed"]);
      expect(failed.body).not.toContain("database down");
      const retried = await app.send(request);
      expect(JSON.parse(retried.body)).toEqual({ received: true });
      expect(attempts).toBe(2);
      expect(errors).toEqual(["handler_failed"]);
    });

    it("accepts an event type nobody handles and hands it to onAny", async () => {
      const { receiver, seen, any } = recordingReceiver();
      const app = await start(receiver);
      const response = await app.send(delivery(eventBody({ type: "message.clicked" })));
      expect(response.status).toBe(200);
      expect(seen).toHaveLength(0);
      expect(any).toEqual(["message.clicked"]);
    });

    it("answers 405 to methods other than POST", async () => {
      const { receiver, seen } = recordingReceiver();
      const app = await start(receiver);
      for (const method of ["GET", "PUT"]) {
        const body = method === "GET" ? undefined : eventBody();
        const response = await app.send({ method, headers: {}, ...(body ? { body } : {}) });
        expect(response.status, method).toBe(405);
        expect(response.headers.allow).toBe("POST");
      }
      expect(seen).toHaveLength(0);
    });

    it("explains, without hanging, that another body parser consumed the body", async () => {
      const { receiver, seen } = recordingReceiver();
      const app = await start(receiver, true);
      const response = await app.send(delivery(eventBody()));
      expect([response.status, errorCode(response)]).toEqual([500, "body_already_parsed"]);
      expect(JSON.parse(response.body).error.message).toMatch(/before|mount|raw|bodyParser/i);
      expect(seen).toHaveLength(0);
    });

    it("verifies a correctly signed body containing bytes that are not valid UTF-8", async () => {
      const { receiver, seen } = recordingReceiver();
      const app = await start(receiver);
      const body = Buffer.concat([
        Buffer.from(
          '{"id":"evt_bytes","type":"message.sent","data":{"id":"msg_b","status":"sent","channel":"sms","note":"',
        ),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('"}}'),
      ]);
      const response = await app.send(delivery(new Uint8Array(body)));
      expect(response.status).toBe(200);
      expect(Buffer.from(seen[0]?.context.verifiedBody ?? []).equals(body)).toBe(true);
    });

    for (const coding of ["gzip", "deflate", "br"] as const) {
      it(`verifies a ${coding}-encoded body over its decoded bytes`, async () => {
        const { receiver, seen } = recordingReceiver();
        const app = await start(receiver);
        const body = eventBody({ id: `evt_${coding}` });
        const response = await app.send(
          delivery(body, { sendBody: ENCODERS[coding](body), headers: { "content-encoding": coding } }),
        );
        expect(response.status).toBe(200);
        expect(seen).toHaveLength(1);
      });
    }

    it("refuses a compressed body that decodes past the limit (zip bomb) with 413", async () => {
      const { receiver, seen } = recordingReceiver({ maxBodyBytes: 64 * 1024 });
      const app = await start(receiver);
      const bomb = new Uint8Array(8 * 1024 * 1024);
      const compressed = ENCODERS.gzip(bomb);
      expect(compressed.byteLength).toBeLessThan(64 * 1024);
      const response = await app.send(
        delivery(bomb, { sendBody: compressed, headers: { "content-encoding": "gzip" } }),
      );
      expect([response.status, errorCode(response)]).toEqual([413, "payload_too_large"]);
      expect(seen).toHaveLength(0);
    });

    it("refuses more than two stacked content codings with 415, before undoing any", async () => {
      const { receiver, seen } = recordingReceiver();
      const app = await start(receiver);
      const body = eventBody({ id: "evt_stacked" });
      const twice = ENCODERS.br(ENCODERS.gzip(body));
      const accepted = await app.send(delivery(body, { sendBody: twice, headers: { "content-encoding": "gzip, br" } }));
      expect(accepted.status).toBe(200);
      let layered = body;
      for (let layer = 0; layer < 50; layer++) layered = ENCODERS.gzip(layered);
      const coding = Array.from({ length: 50 }, () => "gzip").join(", ");
      const refused = await app.send(delivery(body, { sendBody: layered, headers: { "content-encoding": coding } }));
      expect([refused.status, errorCode(refused)]).toEqual([415, "unsupported_encoding"]);
      expect(seen).toHaveLength(1);
    });

    it("refuses codings named like Object.prototype members with 415, not 500", async () => {
      const { receiver, seen } = recordingReceiver();
      const errors: string[] = [];
      receiver.onError((_error, info) => errors.push(info.code));
      const app = await start(receiver);
      for (const coding of ["constructor", "__proto__", "toString", "hasOwnProperty, gzip"]) {
        const response = await app.send(delivery(eventBody(), { headers: { "content-encoding": coding } }));
        expect([response.status, errorCode(response)], coding).toEqual([415, "unsupported_encoding"]);
      }
      expect(errors).toEqual(Array.from({ length: 4 }, () => "unsupported_encoding"));
      expect(seen).toHaveLength(0);
    });

    it.skipIf(target.buffersBody)(
      "reports a client that went away mid-body as body_truncated, never internal_error",
      async () => {
        const { receiver, seen } = recordingReceiver();
        const reported = new Promise<string>((resolve) => receiver.onError((_error, info) => resolve(info.code)));
        const app = await start(receiver);
        const body = eventBody({ id: "evt_gone" });
        expect(await partial(app)(delivery(body), 20, "abort")).toBeUndefined();
        expect(await reported).toBe("body_truncated");
        expect(seen).toHaveLength(0);
      },
    );

    it.skipIf(target.buffersBody)("answers 408 body_timeout to a client that stops sending the body", async () => {
      const { receiver, seen } = recordingReceiver({ bodyTimeoutMs: 300 });
      const app = await start(receiver);
      const answer = await partial(app)(delivery(eventBody({ id: "evt_slow" })), 20, "stall");
      expect([answer?.status, answer && errorCode(answer)]).toEqual([408, "body_timeout"]);
      expect(seen).toHaveLength(0);
    });

    it("answers 503 handler_timeout to a handler that never settles, and 409 to a retry while it runs", async () => {
      const receiver = createReceiver({ secret: SECRET, logger: { error() {} }, handlerTimeoutMs: 200 });
      let runs = 0;
      receiver.on("message.delivered", () => {
        runs++;
        return new Promise(() => {});
      });
      const app = await start(receiver);
      const request = delivery(eventBody({ id: "evt_stuck" }));
      const first = await app.send(request);
      expect([first.status, errorCode(first)]).toEqual([503, "handler_timeout"]);
      const retry = await app.send(request);
      expect([retry.status, errorCode(retry)]).toEqual([409, "delivery_in_progress"]);
      expect(runs).toBe(1);
    });

    it("still answers when the logger throws and an async onError rejects", async () => {
      const receiver = createReceiver({
        secret: SECRET,
        logger: {
          error() {
            throw new Error("log sink down");
          },
        },
      });
      receiver.on("message.delivered", () => {
        throw new Error("handler down");
      });
      const app = await start(receiver);
      const unheard = await app.send(delivery(eventBody()));
      expect([unheard.status, errorCode(unheard)]).toEqual([500, "handler_failed"]);
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on("unhandledRejection", onUnhandled);
      try {
        receiver.onError(async () => {
          throw new Error("metrics service down");
        });
        const unsigned = await app.send(delivery(eventBody(), { signature: `t=1,v1=${"0".repeat(64)}` }));
        expect([unsigned.status, errorCode(unsigned)]).toEqual([400, "signature_mismatch"]);
        // onError ran before the answer was sent, and Node reports a rejection nobody handled once the microtasks of
        // that turn have run: by the next turn of the event loop, any escape is in `unhandled`.
        await new Promise((resolve) => setImmediate(resolve));
      } finally {
        process.off("unhandledRejection", onUnhandled);
      }
      expect(unhandled).toEqual([]);
    });

    it("refuses an unsupported Content-Encoding with 415", async () => {
      const { receiver, seen } = recordingReceiver();
      const app = await start(receiver);
      const response = await app.send(delivery(eventBody(), { headers: { "content-encoding": "compress" } }));
      expect([response.status, errorCode(response)]).toEqual([415, "unsupported_encoding"]);
      expect(seen).toHaveLength(0);
    });

    describe("every sender's scheme", () => {
      describeSchemes(start);
    });

    describe("the URL the sender called", () => {
      describeRequestUrls(start);
    });
  });
}
