/** The streams a command reads and writes: the process's own in the binary, captured ones in tests. */
export interface Io {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export const processIo: Io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };

/** A failure the user can fix: printed as one `error: …` line on stderr, exit code 1, no stack trace. */
export class CliError extends Error {
  override name = "CliError";
}

/** Ends a command with a non-zero exit code after it has already reported why (e.g. `send`'s summary). */
export class CliExit extends Error {
  override name = "CliExit";
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}
