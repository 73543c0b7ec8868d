import { Queue, Worker } from "bullmq";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printable } from "../../packages/cli/src/text/terminal";
import { tidings } from "../support/queue-scenarios";
import { RedisServer } from "../support/redis-server";

// Job ids, event types and error messages come from whoever sent the delivery and whatever the handler threw. Printed
// raw, an escape sequence in them would drive the operator's terminal (retitle it, rewrite earlier lines, paste).

/** A control character of C0, DEL or C1, other than the newlines between lines of output. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const hostile = fc.string({ unit: "binary", minLength: 1, maxLength: 24 });

let redis: RedisServer;
let url: string;
let queues = 0;

beforeAll(async () => {
  redis = await RedisServer.start();
  url = `redis://127.0.0.1:${redis.port}`;
});
afterAll(() => redis?.remove());

/** A queue whose jobs, one per record, all failed with the record's error message. */
async function failedQueue(records: readonly { id: string; type: string; error: string }[]): Promise<string> {
  const name = `escapes${++queues}`;
  const connection = { host: "127.0.0.1", port: redis.port };
  const queue = new Queue(name, { connection });
  for (const { id, type, error } of records) {
    await queue.add(type, { deliveryKey: id, error }, { jobId: id, attempts: 1 });
  }
  let failed = 0;
  await new Promise<void>((resolve) => {
    const worker = new Worker(
      name,
      async (job) => {
        throw new Error(job.data.error);
      },
      { connection },
    );
    worker.on("failed", () => {
      if (++failed === records.length) worker.close().then(resolve);
    });
  });
  await queue.close();
  return name;
}

describe("tidings queue prints no control character from the queue", () => {
  it("escapes C0, DEL and C1 readably", () => {
    expect(printable("evt_\u001b]0;pwned\u0007\u009b2J\u007f\n")).toBe("evt_\\x1b]0;pwned\\x07\\x9b2J\\x7f\\x0a");
  });

  it("failed, failed --json, stats and retry: only newlines between lines, for any ids, types and errors", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.record({
            // BullMQ refuses ids with ":" and takes an all-digit id for its own numbering.
            id: hostile.filter((id) => !id.includes(":") && !/^\d+$/.test(id) && id.trim() !== ""),
            type: hostile,
            error: hostile,
          }),
          { minLength: 1, maxLength: 4, selector: (record) => record.id },
        ),
        async (records) => {
          const name = await failedQueue(records);
          const target = ["--redis", url, "--queue", name];
          const outputs = [
            await tidings(["queue", "failed", ...target]),
            await tidings(["queue", "failed", "--json", ...target]),
            await tidings(["queue", "stats", ...target]),
            await tidings(["queue", "retry", ...records.map((record) => `${record.id}\u001b[2J`), ...target]),
            await tidings(["queue", "retry", ...records.map((record) => record.id), ...target]),
          ];
          for (const { stdout, stderr } of outputs) {
            expect(stdout).not.toMatch(CONTROL);
            expect(stderr).not.toMatch(CONTROL);
          }
          const json = JSON.parse(outputs[1]?.stdout ?? "") as { id: string; error: string }[];
          expect(json.map((job) => job.id).sort()).toEqual(records.map((record) => record.id).sort());
          expect(outputs[4]?.stdout).toBe(`${records.length} job(s) back in ${name}\n`);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
