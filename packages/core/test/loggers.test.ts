import { Console } from "node:console";
import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import winston from "winston";
import { until } from "../../../test/support/wait";
import { createReceiver, type Logger } from "../src/entries";
import { bodyAlreadyConsumed } from "../src/entries/adapter";
import { event, signed } from "./receiver-fixtures";

/** Lines a real logger wrote to its stream. */
function sink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

const loggers: Record<string, (stream: Writable) => Logger> = {
  pino: (stream) => pino(stream),
  winston: (stream) =>
    winston.createLogger({ format: winston.format.json(), transports: [new winston.transports.Stream({ stream })] }),
  console: (stream) => new Console(stream, stream),
};

const consumed = {
  method: "POST",
  headers: {},
  readBody: () => Promise.reject(bodyAlreadyConsumed("Mount it first.")),
};
const MARKER = "marker-after-the-deliveries";

/**
 * The lines the logger wrote before now: a logger writes in order, so once a marker logged after them is out, so are
 * they (winston passes each line through streams, a few turns later).
 */
async function linesLogged(logger: Logger, lines: string[]): Promise<string[]> {
  logger.error({ message: MARKER });
  const marked = () => lines.findIndex((line) => line.includes(MARKER));
  await until(() => marked() >= 0, "the marker to be written");
  return lines.slice(0, marked());
}

describe.each(Object.entries(loggers))("the %s logger", (name, make) => {
  it("gets one structured line per misconfiguration, however many deliveries hit it, and none per normal delivery", async () => {
    const { lines: written, stream } = sink();
    const logger = make(stream);
    const receiver = createReceiver({
      secret: ({ params }) => (params.account === "acct_1" ? { secret: "whsec_1", endpoint: "acct_1" } : undefined),
      logger,
    });
    const to = (account: string) => ({
      ...signed(event({ id: `evt_${account}_${Math.random()}` }), { secret: "whsec_1" }),
      target: { path: `/webhooks/${account}`, params: { account } },
    });
    for (let i = 0; i < 3; i++) {
      expect((await receiver.receive(to("acct_1"))).status).toBe(200);
      expect((await receiver.receive(to("acct_zzz"))).status).toBe(404);
      expect((await receiver.handle(consumed)).status).toBe(500);
    }
    const lines = await linesLogged(logger, written);
    const text = lines.join("\n");
    const count = (word: string) => text.split(word).length - 1;
    expect([
      count("code: 'unknown_endpoint'") + count('"code":"unknown_endpoint"'),
      count("/webhooks/acct_zzz"),
    ]).toEqual([1, 2]);
    expect([
      count("code: 'body_already_parsed'") + count('"code":"body_already_parsed"'),
      count("Mount it first."),
    ]).toEqual([1, 1]);
    if (name !== "console") {
      const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(parsed.map((line) => [line.code, typeof line.message])).toEqual([
        ["unknown_endpoint", "string"],
        ["body_already_parsed", "string"],
      ]);
    }
  });

  it("gets a failure nobody heard with its error's message and stack as facts", async () => {
    const { lines: written, stream } = sink();
    const logger = make(stream);
    const receiver = createReceiver({ secret: "whsec_1", logger }).on("message.delivered", () => {
      throw new Error("database down");
    });
    expect((await receiver.receive(signed(event(), { secret: "whsec_1" }))).status).toBe(500);
    const lines = await linesLogged(logger, written);
    expect(lines.join("\n")).toContain("database down");
    if (name !== "console") {
      const [line] = lines.map(
        (text) => JSON.parse(text) as { code?: string; err?: { message?: string; stack?: string } },
      );
      expect(line?.code).toBe("handler_failed");
      expect(line?.err?.message).toBe("database down");
      expect(line?.err?.stack).toContain("Error: database down");
    }
  });
});
