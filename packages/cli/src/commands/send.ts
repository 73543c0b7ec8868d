import { type Command, Option } from "commander";
import { buildEvent, MESSAGE_EVENT_TYPES, type MessageEventType } from "../events";
import { CliExit, type Io } from "../io";
import { requireSigningSecret, SCHEME_NAMES, schemeNamed } from "../schemes";
import { runDeliveries } from "../send/deliveries";
import { createProgress } from "../send/progress";
import { formatResult, formatSummary, isOk, summarize } from "../send/stats";
import { fileText, httpUrl, integer, jsonObject, nonEmpty } from "./parsers";

/** Above this many deliveries a progress bar replaces the per-delivery lines when stderr is a terminal. */
export const PROGRESS_THRESHOLD = 20;

interface SendOptions {
  url: string;
  secret: string;
  type: MessageEventType;
  data?: Record<string, unknown>;
  count: number;
  concurrency: number;
  timeout: number;
  progress?: boolean;
  verbose?: boolean;
  scheme: string;
  payload?: string;
}

async function send(options: SendOptions, io: Io): Promise<void> {
  const showProgress = options.progress ?? (options.count > PROGRESS_THRESHOLD && io.stderr.isTTY === true);
  const progress = showProgress ? createProgress(io.stderr, options.count, options.progress === true) : undefined;
  const printLines = !progress || options.verbose === true;
  const scheme = schemeNamed(options.scheme);
  requireSigningSecret(scheme, options.secret, options.url);
  const results = await runDeliveries({
    url: options.url,
    secret: options.secret,
    count: options.count,
    concurrency: options.concurrency,
    timeoutMs: options.timeout,
    makeEvent: () => buildEvent(options.type, options.data),
    scheme,
    payload: options.payload,
    onResult: (result) => {
      progress?.tick();
      if (printLines) io.stdout.write(`${formatResult(result, options.count)}\n`);
    },
  });
  progress?.stop();
  io.stdout.write(`${formatSummary(summarize(results))}\n`);
  if (!results.every(isOk)) throw new CliExit(1);
}

export function registerSend(program: Command, io: Io): void {
  program
    .command("send")
    .description(
      "Sign and POST test events to a webhook URL; print each delivery's status and latency, then a summary.",
    )
    .addOption(new Option("-u, --url <url>", "webhook URL to POST to").makeOptionMandatory().argParser(httpUrl))
    .addOption(
      new Option("-s, --secret <secret>", "endpoint secret")
        .env("TIDINGS_SECRET")
        .makeOptionMandatory()
        .argParser(nonEmpty),
    )
    .addOption(
      new Option("--type <type>", "event type; data.status follows it")
        .choices(MESSAGE_EVENT_TYPES)
        .default("message.delivered"),
    )
    .addOption(
      new Option("--scheme <name>", "sign as this sender does, with the headers it sends")
        .choices(SCHEME_NAMES)
        .default("service-signature"),
    )
    .option("--data <json>", "JSON object merged into the event's data (may override id, status, channel)", jsonObject)
    .option(
      "--payload <file>",
      "send this file's bytes as the body, signed as --scheme's sender signs (in place of --type and --data)",
      fileText,
    )
    .option("-n, --count <n>", "number of events to send", integer(1), 1)
    .option("-c, --concurrency <n>", "deliveries in flight at once", integer(1), 1)
    .option("--timeout <ms>", "give up on one delivery after this long", integer(1), 10_000)
    .option(
      "--progress",
      `progress bar on stderr (default: when --count > ${PROGRESS_THRESHOLD} and stderr is a terminal)`,
    )
    .option("--no-progress", "never show the progress bar")
    .option("-v, --verbose", "print every delivery's line even with the progress bar")
    .addHelpText(
      "after",
      '\nExit code 0 when every delivery got a 2xx answer, 1 otherwise.\n\nExample:\n  tidings send -u http://localhost:3000/webhooks -s "$SECRET" --type message.failed -n 100 -c 10',
    )
    .action((options: SendOptions) => send(options, io));
}
