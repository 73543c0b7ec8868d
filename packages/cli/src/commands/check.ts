import { type Command, Option } from "commander";
import { formatReport } from "../check/report";
import { runCheck } from "../check/run-check";
import { CliError, CliExit, type Io } from "../io";
import { requireSigningSecret, SCHEME_NAMES, schemeNamed } from "../schemes";
import { httpUrl, integer, nonEmpty } from "./parsers";

interface CheckCommandOptions {
  url?: string;
  secret: string;
  json?: boolean;
  size: number;
  timeoutWarn: number;
  timeout: number;
  scheme: string;
}

export function registerCheck(program: Command, io: Io): void {
  program
    .command("check")
    .description("Probe a webhook receiver with signed deliveries, valid and not, and print a report card.")
    .argument("[url]", "webhook URL to probe (or --url)", httpUrl)
    .addOption(new Option("-u, --url <url>", "webhook URL to probe").argParser(httpUrl))
    .addOption(
      new Option("-s, --secret <secret>", "the receiver's endpoint secret")
        .env("TIDINGS_SECRET")
        .makeOptionMandatory()
        .argParser(nonEmpty),
    )
    .addOption(
      new Option("--scheme <name>", "the sender whose signature format the probes take")
        .choices(SCHEME_NAMES)
        .default("service-signature"),
    )
    .option("--json", "print the report as JSON")
    .option("--size <bytes>", "body size of the large-delivery probe", integer(1), 1_000_000)
    .option("--timeout-warn <ms>", "flag answers slower than this (the sender would time out)", integer(1), 10_000)
    .option("--timeout <ms>", "a probe with no answer after this long has failed", integer(1), 30_000)
    .addHelpText(
      "after",
      '\nExit code 0 when every probe passed, 1 otherwise.\n\nExamples:\n  tidings check http://localhost:3000/webhooks --secret "$SECRET"\n  tidings check http://localhost:3000/webhooks/github --scheme github --secret "$GITHUB_WEBHOOK_SECRET"',
    )
    .action(async (argument: string | undefined, options: CheckCommandOptions) => {
      const url = argument ?? options.url;
      if (url === undefined) throw new CliError("give the webhook URL, as an argument or with --url");
      requireSigningSecret(schemeNamed(options.scheme), options.secret, url);
      const report = await runCheck({
        url,
        secret: options.secret,
        sizeBytes: options.size,
        warnMs: options.timeoutWarn,
        timeoutMs: options.timeout,
        scheme: options.scheme,
      });
      io.stdout.write(`${options.json ? JSON.stringify(report, null, 2) : formatReport(report)}\n`);
      if (!report.pass) throw new CliExit(1);
    });
}
