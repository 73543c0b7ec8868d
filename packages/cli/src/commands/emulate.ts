import { type Command, Option } from "commander";
import { FAILING_RECIPIENTS, TEST_KEY_PREFIX } from "../emulator/rules";
import { type EmulatorOptions, startEmulator } from "../emulator/server";
import { CliError, type Io } from "../io";
import { httpUrl, integer, nonEmpty, positiveNumber, probability, wholeRange } from "./parsers";

interface EmulateOptions {
  port: number;
  host: string;
  webhookUrl: string;
  secret: string;
  attempts: number;
  retryBase: number;
  retryFactor: number;
  timeout: number;
  duplicates: number;
  reorder: number;
  delay: [number, number];
  clockSkew: number;
  seed?: number;
  ui: boolean;
  uiPort: number;
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

const HELP_AFTER = [
  "",
  `Accepts API keys starting with ${TEST_KEY_PREFIX}. Messages to ${Object.values(FAILING_RECIPIENTS).join(", ")} end with message.failed.`,
  "The dashboard (http://127.0.0.1:4011 by default) shows every delivery attempt live.",
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
    chaos: {
      duplicates: options.duplicates,
      reorder: options.reorder,
      delayMs: options.delay,
      clockSkewS: options.clockSkew,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    },
    ...(options.ui ? { dashboard: { port: options.uiPort } } : {}),
    log,
  };
  const emulator = await startEmulator(emulatorOptions).catch((error: NodeJS.ErrnoException) => {
    const ports = options.ui ? `ports ${options.port} and ${options.uiPort} (--ui-port)` : `port ${options.port}`;
    throw new CliError(`cannot listen on ${options.host}, ${ports}: ${error.code ?? error.message}`);
  });
  const { chaos } = emulator;
  const failing = Object.entries(FAILING_RECIPIENTS).map(([channel, to]) => `${channel} ${to}`);
  log(`tidings emulator (test mode) listening on ${emulator.url}`);
  log(`  POST ${emulator.url}/v3/messages with Authorization: Bearer ${TEST_KEY_PREFIX}…`);
  log(
    `  events go to ${options.webhookUrl}: ${options.attempts} attempts, backoff ${options.retryBase} ms ×${options.retryFactor}`,
  );
  log(`  recipients that fail: ${failing.join(", ")}`);
  log(
    `  chaos: duplicates ${chaos.duplicates}, reorder ${chaos.reorder}, delay ${chaos.delayMs.join("-")} ms, clock skew ±${chaos.clockSkewS} s, seed ${chaos.seed}`,
  );
  if (emulator.dashboardUrl) log(`  dashboard: ${emulator.dashboardUrl}`);
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
    .option("--duplicates <p>", "chaos: probability that a delivered event is sent again", probability, 0)
    .option("--reorder <p>", "chaos: probability that two neighbouring events of a message swap", probability, 0)
    .option("--delay <min-max>", "chaos: wait a random MIN to MAX ms before each event", wholeRange, [0, 0])
    .option("--clock-skew <seconds>", "chaos: sign with a clock off by up to ± this many seconds", integer(0), 0)
    .option("--seed <n>", "chaos: the same seed replays the same chaos (default: random, printed)", integer(0))
    .option("--ui-port <port>", "port of the dashboard (0: any free port)", integer(0, 65_535), 4011)
    .option("--no-ui", "do not serve the dashboard")
    .addHelpText("after", HELP_AFTER)
    .action((options: EmulateOptions) => emulate(options, io));
}
