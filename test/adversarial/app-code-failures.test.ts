import { createReceiver, type ErrorListener, type Logger, sign } from "@tidings/core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const SECRET = "whsec_failures";
const HANDLER_TIMEOUT_MS = 20;

/** An object that throws on any use: reading a property, converting it to a string, inspecting it. */
const booby = new Proxy(
  {},
  {
    get() {
      throw new Error("touched");
    },
    getPrototypeOf() {
      throw new Error("touched");
    },
    ownKeys() {
      throw new Error("touched");
    },
  },
);
const thrown: Record<string, unknown> = { error: new Error("x"), string: "x", undefined: undefined, null: null, booby };

const neverSettles = () => new Promise(() => {});
const thenableThatThrows = () => ({
  // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point
  then() {
    throw booby;
  },
});

/** Handler shapes: each value thrown, each value rejected, hostile thenables, a promise that never settles. */
const handlers: Record<string, () => unknown> = {
  ...Object.fromEntries(
    Object.entries(thrown).flatMap(([name, value]) => [
      [
        `throws ${name}`,
        () => {
          throw value;
        },
      ],
      [`rejects with ${name}`, () => Promise.reject(value)],
    ]),
  ),
  "returns a thenable whose then throws": thenableThatThrows,
  "never settles": neverSettles,
};

const onErrors: Record<string, ErrorListener> = {
  throws: () => {
    throw booby;
  },
  rejects: () => Promise.reject(booby),
  "returns a thenable whose then throws": thenableThatThrows,
  "never settles": neverSettles,
};

const loggers: Record<string, Logger> = {
  throws: {
    error() {
      throw booby;
    },
  },
  "is a booby trap": booby as Logger,
  "warns by throwing": {
    error() {},
    warn() {
      throw booby;
    },
  },
};

function signedDelivery(id: string) {
  const rawBody = new TextEncoder().encode(JSON.stringify({ id, type: "message.sent", data: {} }));
  return { rawBody, headers: { "service-signature": sign(rawBody, SECRET) } };
}

describe("the app's handlers, onError and logger failing in every shape", () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on("unhandledRejection", onUnhandled);
  });
  afterEach(() => {
    process.off("unhandledRejection", onUnhandled);
  });
  // The handler that never settles is cut off by handlerTimeoutMs on vitest's fake clock; the next turn of the event
  // loop (setImmediate) stays real.
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  for (const [loggerName, logger] of Object.entries(loggers)) {
    for (const [onErrorName, onError] of Object.entries({ none: undefined, ...onErrors })) {
      it(`logger ${loggerName}, onError ${onErrorName}: every handler shape gets a 5xx answer, nothing escapes`, async () => {
        const receiver = createReceiver({ secret: SECRET, logger, handlerTimeoutMs: HANDLER_TIMEOUT_MS });
        if (onError) receiver.onError(onError);
        let current: () => unknown = () => undefined;
        receiver.on("message.sent", () => current());
        for (const [name, handler] of Object.entries(handlers)) {
          current = handler;
          const answering = receiver.receive(signedDelivery(`evt_${name}`));
          await vi.advanceTimersByTimeAsync(HANDLER_TIMEOUT_MS);
          const result = await answering;
          const expected = name === "never settles" ? 503 : 500;
          expect(result.status, name).toBe(expected);
          expect(result.body, name).not.toMatch(/touched/);
        }
        const unsigned = await receiver.receive({ rawBody: new Uint8Array(), headers: {} });
        expect(unsigned.status).toBe(400);
        // Every listener runs within the deliveries' microtasks, and Node reports the rejections nobody handled once
        // those have run: by the next turn of the event loop, any escape is in `unhandled`.
        await new Promise((resolve) => setImmediate(resolve));
        expect(unhandled).toEqual([]);
      });
    }
  }
});
