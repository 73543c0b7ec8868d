import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURES } from "../src/index";
import { runCli, SECRET, startReceiver, type TestReceiver } from "./helpers";

let receiver: TestReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const deliveryLine = /^ *\d+\/\d+ evt_[0-9a-f]{24} (\d{3}|failed to connect \(\S+\))( \S+)? \d+\.\d ms$/;
const lines = (text: string) => text.trimEnd().split("\n");

describe("tidings send", () => {
  it("delivers one signed event that a real Receiver verifies and handles; exit 0", async () => {
    receiver = await startReceiver();
    const result = await runCli(["send", "--url", receiver.url, "--secret", SECRET, "--type", "message.delivered"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(receiver.events).toHaveLength(1);
    const [event] = receiver.events;
    expect(event).toMatchObject({ type: "message.delivered", data: { status: "delivered", channel: "sms" } });
    expect(event?.id).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(event?.data.id).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(typeof event?.created).toBe("number");
    const [line, summary, latency] = lines(result.stdout);
    expect(line).toMatch(deliveryLine);
    expect(line).toContain(`${event?.id} 200 `);
    expect(summary).toBe("sent 1: 2xx 1, other 0, failed to connect 0");
    expect(latency).toMatch(/^latency: p50 \d+\.\d ms, p95 \d+\.\d ms, max \d+\.\d ms$/);
  });

  it("sends 50 with concurrency 10: every one verified and handled once; one line each; exit 0", async () => {
    receiver = await startReceiver();
    const result = await runCli([
      "send",
      "-u",
      receiver.url,
      "-s",
      SECRET,
      "--type",
      "message.sent",
      "-n",
      "50",
      "-c",
      "10",
    ]);
    expect(result.code).toBe(0);
    expect(receiver.events).toHaveLength(50);
    expect(new Set(receiver.events.map((event) => event.id)).size).toBe(50);
    expect(receiver.events.every((event) => event.type === "message.sent" && event.data.status === "sent")).toBe(true);
    const output = lines(result.stdout);
    expect(output.slice(0, 50).every((line) => deliveryLine.test(line) && line.includes(" 200 "))).toBe(true);
    expect(output[50]).toBe("sent 50: 2xx 50, other 0, failed to connect 0");
    expect(output).toHaveLength(52);
  });

  it("has exactly --concurrency deliveries in flight", async () => {
    // Answers are held until 3 requests wait, then released a little later: with fewer workers this never
    // happens (the test times out), with more the extra requests arrive meanwhile and `most` exceeds 3.
    let held: (() => void)[] = [];
    let inFlight = 0;
    let most = 0;
    receiver = await startReceiver({
      intercept: (_request, response) => {
        most = Math.max(most, ++inFlight);
        held.push(() => {
          inFlight--;
          response.writeHead(204).end();
        });
        if (held.length === 3) {
          const release = held;
          held = [];
          setTimeout(() => {
            for (const answer of release) answer();
          }, 20);
        }
        return true;
      },
    });
    const result = await runCli(["send", "-u", receiver.url, "-s", SECRET, "-n", "30", "-c", "3"]);
    expect(result.code).toBe(0);
    expect(receiver.requests).toBe(30);
    expect(most).toBe(3);
  });

  it("sends the type's fixture with --data merged into its data, overriding the defaults", async () => {
    receiver = await startReceiver();
    const data = JSON.stringify({ channel: "email", to: "ada@example.com", id: "msg_fixed" });
    const result = await runCli(["send", "-u", receiver.url, "-s", SECRET, "--type", "message.failed", "--data", data]);
    expect(result.code).toBe(0);
    expect(receiver.events[0]?.data).toEqual({
      id: "msg_fixed",
      status: "failed",
      channel: "email",
      to: "ada@example.com",
      reason: FIXTURES["message.failed"].data.reason,
    });
  });

  it("exits 1 when the receiver answers 500, and reports the receiver's error code", async () => {
    receiver = await startReceiver({
      intercept: (_request, response) => {
        response.writeHead(500, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { code: "handler_failed", message: "boom" } }));
        return true;
      },
    });
    const result = await runCli(["send", "-u", receiver.url, "-s", SECRET, "-n", "3"]);
    expect(result.code).toBe(1);
    const output = lines(result.stdout);
    expect(output.slice(0, 3).every((line) => line.includes(" 500 handler_failed "))).toBe(true);
    expect(output[3]).toBe("sent 3: 2xx 0, other 3, failed to connect 0");
  });

  it("exits 1 when the secret is wrong: the real Receiver refuses with signature_mismatch", async () => {
    receiver = await startReceiver();
    const result = await runCli(["send", "-u", receiver.url, "-s", "whsec_wrong"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(" 400 signature_mismatch ");
    expect(receiver.events).toHaveLength(0);
  });

  it("counts a receiver that is down as failed to connect; exit 1", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const result = await runCli(["send", "-u", `http://127.0.0.1:${port}/`, "-s", SECRET, "-n", "2"]);
    expect(result.code).toBe(1);
    expect(lines(result.stdout)[0]).toContain("failed to connect (ECONNREFUSED)");
    expect(result.stdout).toContain("sent 2: 2xx 0, other 0, failed to connect 2\nlatency: p50 -, p95 -, max -\n");
  });

  it("draws a progress bar on stderr instead of per-delivery lines when asked", async () => {
    receiver = await startReceiver();
    const result = await runCli(["send", "-u", receiver.url, "-s", SECRET, "-n", "25", "-c", "5", "--progress"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("25/25");
    expect(lines(result.stdout)).toEqual([
      expect.stringMatching(/^sent 25: 2xx 25/),
      expect.stringMatching(/^latency:/),
    ]);
  });

  it("shows the bar on its own above 20 deliveries when stderr is a terminal; --verbose keeps the lines", async () => {
    receiver = await startReceiver();
    const auto = await runCli(["send", "-u", receiver.url, "-s", SECRET, "-n", "21"], { stderrIsTTY: true });
    expect(auto.stderr).toContain("21/21");
    expect(lines(auto.stdout)).toHaveLength(2);
    const small = await runCli(["send", "-u", receiver.url, "-s", SECRET, "-n", "20"], { stderrIsTTY: true });
    expect(small.stderr).toBe("");
    const notTty = await runCli(["send", "-u", receiver.url, "-s", SECRET, "-n", "21"]);
    expect(notTty.stderr).toBe("");
    expect(lines(notTty.stdout)).toHaveLength(23);
    const verbose = await runCli(["send", "-u", receiver.url, "-s", SECRET, "-n", "21", "-v"], { stderrIsTTY: true });
    expect(verbose.stderr).toContain("21/21");
    expect(lines(verbose.stdout)).toHaveLength(23);
  });

  it.each([
    [["send", "-s", SECRET], /^error: required option '-u, --url <url>' not specified\n$/],
    [["send", "-u", "ftp://x", "-s", SECRET], /^error: option .*--url.* argument 'ftp:\/\/x' is invalid\..*\n$/],
    [
      ["send", "-u", "http://x", "-s", SECRET, "--type", "message.read"],
      /^error: option .*--type.* argument 'message\.read' is invalid\. Allowed choices are .*\n$/,
    ],
    [
      ["send", "-u", "http://x", "-s", SECRET, "--data", "[1]"],
      /^error: option '--data <json>' argument '\[1\]' is invalid\..*\n$/,
    ],
    [
      ["send", "-u", "http://x", "-s", SECRET, "--data", "{nope"],
      /^error: option '--data <json>' argument '\{nope' is invalid\..*\n$/,
    ],
    [["send", "-u", "http://x", "-s", SECRET, "-n", "0"], /^error: option .*--count.* argument '0' is invalid\..*\n$/],
    [
      ["send", "-u", "http://x", "-s", SECRET, "-c", "1.5"],
      /^error: option .*--concurrency.* argument '1\.5' is invalid\..*\n$/,
    ],
  ])("%j: one-line error, exit 1, nothing sent", async (argv, stderr) => {
    const result = await runCli(argv);
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toMatch(stderr);
  });
});
