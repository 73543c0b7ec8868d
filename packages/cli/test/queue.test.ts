import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { jobIdFor } from "@tidings/bullmq";
import { Queue, Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../test/support/free-port";
import { RedisServer } from "../../../test/support/redis-server";
import { runCli } from "./helpers";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);

/** The command from its sources in a process of its own, so that whatever a library prints to stderr is seen. */
async function tidingsProcess(args: string[]) {
  const argv = ["--conditions=@tidings/source", "--import", "tsx", "src/bin.ts", ...args];
  try {
    const { stdout, stderr } = await run(process.execPath, argv, { cwd: packageDir });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

describe("tidings queue", () => {
  it("needs one engine: --redis or --postgres", async () => {
    const result = await runCli(["queue", "stats", "--queue", "deliveries"]);
    expect([result.code, result.stderr]).toEqual([
      1,
      "error: give the queue's engine: --redis <url> (BullMQ) or --postgres <url> (pg-boss)\n",
    ]);
  });

  it.runIf(Number(process.versions.node.split(".")[0]) < 22)(
    "says pg-boss needs Node 22.12 on an older Node",
    async () => {
      const result = await runCli([
        "queue",
        "failed",
        "--postgres",
        "postgres://127.0.0.1/app",
        "--queue",
        "deliveries",
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `error: --postgres uses pg-boss, which needs Node.js ≥ 22.12; this is Node.js ${process.versions.node}\n`,
      );
    },
  );

  it("retry needs ids or --all, not both", async () => {
    const both = await runCli(["queue", "retry", "id1", "--all", "--redis", "redis://127.0.0.1:1", "-q", "deliveries"]);
    expect([both.code, both.stderr]).toEqual([1, "error: give job ids or --all\n"]);
  });

  it("says in retry's help how a retry differs between BullMQ and pg-boss", async () => {
    const help = await runCli(["queue", "retry", "--help"]);
    expect(help.stdout).toContain(
      "A retried BullMQ job gets a fresh set of attempts; a retried pg-boss job gets one more run",
    );
  });

  it("with Redis down: exactly one error line naming Redis (no stack trace, no password), exit 1", async () => {
    const port = await freePort();
    for (const command of ["stats", "failed"]) {
      const result = await tidingsProcess([
        "queue",
        command,
        "--redis",
        `redis://ops:s3cret@127.0.0.1:${port}`,
        "-q",
        "deliveries",
      ]);
      expect(result).toEqual({
        code: 1,
        stdout: "",
        stderr: `error: cannot reach Redis at redis://127.0.0.1:${port}: ECONNREFUSED\n`,
      });
    }
  });
});

describe("tidings queue on a real Redis (BullMQ)", () => {
  let redis: RedisServer;
  let url: string;
  const name = "deliveries";
  let queue: Queue;

  beforeAll(async () => {
    redis = await RedisServer.start();
    url = `redis://127.0.0.1:${redis.port}`;
    queue = new Queue(name, { connection: { host: "127.0.0.1", port: redis.port } });
    // Two deliveries whose jobs failed, as @tidings/bullmq enqueues them (job id from the delivery key).
    for (const key of ["event:evt_dead1", "event:evt_dead2"]) {
      await queue.add("message.delivered", { deliveryKey: key }, { jobId: jobIdFor(key), attempts: 1 });
    }
    let failures = 0;
    await new Promise<void>((resolve) => {
      const worker = new Worker(
        name,
        async () => {
          throw new Error("downstream refused");
        },
        { connection: { host: "127.0.0.1", port: redis.port } },
      );
      worker.on("failed", () => {
        if (++failures === 2) worker.close().then(resolve);
      });
    });
    await queue.add("message.sent", { deliveryKey: "event:evt_later" }, { jobId: "later", delay: 3_600_000 });
    await queue.add("message.sent", { deliveryKey: "event:evt_urgent" }, { jobId: "urgent", priority: 1 });
    await queue.add("message.sent", { deliveryKey: "event:evt_plain" }, { jobId: "plain" });
  }, 60_000);
  afterAll(async () => {
    await queue?.close();
    await redis?.remove();
  });

  it("stats counts delayed and prioritized jobs apart from waiting ones", async () => {
    const result = await runCli(["queue", "stats", "--redis", url, "-q", name]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      [
        "waiting      1",
        "prioritized  1",
        "delayed      1",
        "active       0",
        "completed    0",
        "failed       2",
        "",
      ].join("\n"),
    );
  });

  it("stats --json and failed --json", async () => {
    const stats = await runCli(["queue", "stats", "--redis", url, "-q", name, "--json"]);
    expect(JSON.parse(stats.stdout)).toEqual({
      queue: name,
      engine: "BullMQ",
      counts: { waiting: 1, prioritized: 1, delayed: 1, active: 0, completed: 0, failed: 2 },
    });
    const failed = await runCli(["queue", "failed", "--redis", url, "-q", name, "--json"]);
    const jobs = JSON.parse(failed.stdout) as { id: string; deliveryKey: string; error: string; attempts: number }[];
    const listed = jobs.map(({ id, deliveryKey, error, attempts }) => ({ id, deliveryKey, error, attempts }));
    expect(listed.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: jobIdFor("event:evt_dead1"), deliveryKey: "event:evt_dead1", error: "downstream refused", attempts: 1 },
      { id: jobIdFor("event:evt_dead2"), deliveryKey: "event:evt_dead2", error: "downstream refused", attempts: 1 },
    ]);
  });

  it("a misspelled --queue is an error naming the queues there, not zeros", async () => {
    for (const command of ["stats", "failed"]) {
      const result = await runCli(["queue", command, "--redis", url, "-q", "delivery"]);
      expect([result.code, result.stdout, result.stderr]).toEqual([
        1,
        "",
        `error: no queue named delivery in this BullMQ (its queues: ${name})\n`,
      ]);
    }
  });

  it("retry of an unknown id or a job that is not failed says so and exits 1", async () => {
    const result = await runCli(["queue", "retry", "nope", "plain", "--redis", url, "-q", name]);
    expect([result.code, result.stdout, result.stderr]).toEqual([
      1,
      `0 job(s) back in ${name}\n`,
      `error: not retried: nope: no such job or delivery key in ${name}; plain: not failed (waiting)\n`,
    ]);
  });

  it("retry takes the delivery key as logs and ctx.deliveryKey show it, as well as the job id", async () => {
    const byKey = await runCli(["queue", "retry", "event:evt_dead1", "--redis", url, "-q", name]);
    expect([byKey.code, byKey.stdout, byKey.stderr]).toEqual([0, `1 job(s) back in ${name}\n`, ""]);
    expect(await (await queue.getJob(jobIdFor("event:evt_dead1")))?.getState()).toBe("waiting");
    const byId = await runCli(["queue", "retry", jobIdFor("event:evt_dead2"), "--redis", url, "-q", name]);
    expect([byId.code, byId.stdout]).toEqual([0, `1 job(s) back in ${name}\n`]);
  });
});
