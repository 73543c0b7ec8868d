import { readFile } from "node:fs/promises";
import { sign } from "@tidings/core";
import type { Scheme } from "@tidings/core/schemes";
import { type Command, Option } from "commander";
import { CliError, type Io } from "../io";
import { SCHEME_NAMES, schemeNamed } from "../schemes";
import { httpUrl, integer, nonEmpty } from "./parsers";

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function readPayload(file: string | undefined, io: Io): Promise<Buffer> {
  if (file === undefined || file === "-") return readAll(io.stdin);
  try {
    return await readFile(file);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

interface SignOptions {
  secret: string;
  timestamp?: number;
  scheme: string;
  url?: string;
}

/** The headers `scheme`'s sender sends with `payload`; a CliError saying why, where it cannot sign (no --url). */
function signAs(scheme: Scheme, payload: Buffer, { secret, timestamp, url }: SignOptions) {
  try {
    return scheme.sign(payload, secret, {
      ...(timestamp === undefined ? {} : { timestamp }),
      ...(url === undefined ? {} : { url }),
    });
  } catch (error) {
    const hint = scheme.readsRequest && url === undefined ? " (give the URL with --url)" : "";
    throw new CliError(`--scheme ${scheme.name} cannot sign: ${(error as Error).message}${hint}`);
  }
}

export function registerSign(program: Command, io: Io): void {
  program
    .command("sign")
    .description("Print the Service-Signature header value for a payload (the exact bytes of FILE, or stdin).")
    .argument("[file]", 'payload file; "-" or nothing reads stdin')
    .addOption(
      new Option("-s, --secret <secret>", "endpoint secret")
        .env("TIDINGS_SECRET")
        .makeOptionMandatory()
        .argParser(nonEmpty),
    )
    .option("-t, --timestamp <unix-seconds>", "timestamp to sign with (default: now)", integer(0))
    .addOption(
      new Option("--scheme <name>", "sign as this sender does; prints every header it sends, one `name: value` a line")
        .choices(SCHEME_NAMES)
        .default("service-signature"),
    )
    .addOption(
      new Option(
        "-u, --url <url>",
        "the URL the delivery is sent to, for a sender that signs it (twilio, square…)",
      ).argParser(httpUrl),
    )
    .addHelpText(
      "after",
      '\nExample:\n  curl -H "Service-Signature: $(tidings sign -s "$SECRET" event.json)" --data-binary @event.json …',
    )
    .action(async (file: string | undefined, options: SignOptions) => {
      const payload = await readPayload(file, io);
      const scheme = schemeNamed(options.scheme);
      if (scheme) {
        const headers = signAs(scheme, payload, options);
        for (const [name, value] of Object.entries(headers)) io.stdout.write(`${name}: ${value}\n`);
        return;
      }
      const header = sign(
        payload,
        options.secret,
        options.timestamp === undefined ? {} : { timestamp: options.timestamp },
      );
      io.stdout.write(`${header}\n`);
    });
}
