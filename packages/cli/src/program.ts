import { Command, CommanderError } from "commander";
import packageJson from "../package.json";
import { registerCheck } from "./commands/check";
import { registerEmulate } from "./commands/emulate";
import { registerFixtures } from "./commands/fixtures";
import { registerQueue } from "./commands/queue";
import { registerSend } from "./commands/send";
import { registerSign } from "./commands/sign";
import { CliError, CliExit, type Io, processIo } from "./io";
import { printable } from "./text/terminal";

/** commander puts "(Did you mean …?)" on a second line; errors stay on one, with any control character escaped. */
const oneLine = (message: string) => `${printable(message.replace(/\s*\n\s*(?=\S)/g, " ").trimEnd())}\n`;

export function createProgram(io: Io): Command {
  const program = new Command("tidings")
    .description("Sign, send and check test deliveries, and emulate the messaging service in test mode.")
    .version(packageJson.version, "-V, --version")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(oneLine(text)),
    });
  registerSign(program, io);
  registerSend(program, io);
  registerEmulate(program, io);
  registerCheck(program, io);
  registerFixtures(program, io);
  registerQueue(program, io);
  return program;
}

/** Runs the CLI on `argv` (without node and the script); resolves to the exit code. Never throws. */
export async function run(argv: readonly string[], io: Io = processIo): Promise<number> {
  try {
    await createProgram(io).parseAsync([...argv], { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CliExit) return error.exitCode;
    if (error instanceof CommanderError) return error.exitCode;
    const message =
      error instanceof CliError ? error.message : `unexpected failure: ${(error as Error)?.message ?? error}`;
    io.stderr.write(oneLine(`error: ${message}`));
    return 1;
  }
}
