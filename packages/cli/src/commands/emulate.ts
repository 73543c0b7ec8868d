import { type Command, Option } from "commander";
import { FAILING_RECIPIENTS, TEST_KEY_PREFIX } from "../emulator/rules";
import { type EmulatorOptions, startEmulator } from "../emulator/server";
import { CliError, type Io } from "../io";
import { httpUrl, integer, nonEmpty, positiveNumber } from "./parsers";

interface EmulateOptions {
  port: number;
  host: string;
  webhookUrl: string;
  secret: string;
  attempts: number;
  retryBase: number;
  retryFactor: number;
  timeout: number;
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

const HELP_AFTER = [
  "",
  `Accepts API keys starting with ${TEST_KEY_PREFIX}. Messages to ${Object.values(FAILING_RECIPIENTS).join(", ")} end with message.failed.`,
  "Stops on SIGINT or SIGTERM.",
  "",
  "Example:",
  '  tidings emulate -w http://localhost:3000/webhooks -s "$SECRET"',
  `  curl http://127.0.0.1:4010/v3/messages -H "Authorization: Bearer ${TEST_KEY_PREFIX}local" \\`,
  '    -d channel=sms --data-urlencode "to=+15551234567" -d body=Hi',
].join("\n");

function nextSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      for (const name of SIGNALS) process.off(name, onSignal);
      resolve(signal);
    };
    for (const name of SIGNALS) process.on(name, onSignal);
  });
}

async function emulate(options: EmulateOptions, io: Io): Promise<void> {
  const log = (line: string) => io.stdout.write(`${line}\n`);
  const emulatorOptions: EmulatorOptions = {
    port: options.port,
    host: options.host,
    webhookUrl: options.webhookUrl,
    secret: options.secret,
    retry: { attempts: options.attempts, baseDelayMs: options.retryBase, factor: options.retryFactor },
    attemptTimeoutMs: options.timeout,
    log,
  };
  const emulator = await startEmulator(emulatorOptions).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot listen on ${options.host}:${options.port}: ${error.code ?? error.message}`);
  });
  const failing = Object.entries(FAILING_RECIPIENTS).map(([channel, to]) => `${channel} ${to}`);
  log(`tidings emulator (test mode) listening on ${emulator.url}`);
  log(`  POST ${emulator.url}/v3/messages with Authorization: Bearer ${TEST_KEY_PREFIX}…`);
  log(
    `  events go to ${options.webhookUrl}: ${options.attempts} attempts, backoff ${options.retryBase} ms ×${options.retryFactor}`,
  );
  log(`  recipients that fail: ${failing.join(", ")}`);
  log("  Ctrl-C to stop");
  const signal = await nextSignal();
  log(`${signal}: stopping (retries still pending are abandoned)`);
  await emulator.close();
  log("stopped");
}

export function registerEmulate(program: Command, io: Io): void {
  program
    .command("emulate")
    .description("Run the messaging service's API in test mode locally; deliver signed events for each message.")
    .addOption(
      new Option("-w, --webhook-url <url>", "where to POST the events").makeOptionMandatory().argParser(httpUrl),
    )
    .addOption(
      new Option("-s, --secret <secret>", "endpoint secret to sign events with")
        .env("TIDINGS_SECRET")
        .makeOptionMandatory()
        .argParser(nonEmpty),
    )
    .option("-p, --port <port>", "port to listen on (0: any free port)", integer(0, 65_535), 4010)
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--attempts <n>", "delivery attempts per event, the first included", integer(1), 5)
    .option("--retry-base <ms>", "wait after the first failed attempt", integer(0), 250)
    .option("--retry-factor <x>", "each further wait is the previous one times this", positiveNumber(1), 2)
    .option("--timeout <ms>", "an attempt with no answer after this long has failed", integer(1), 5_000)
    .addHelpText("after", HELP_AFTER)
    .action((options: EmulateOptions) => emulate(options, io));
}
