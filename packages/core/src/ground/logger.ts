/**
 * console, pino, winston and the like. Tidings logs one object per line (`message`, `code`, and facts such as `err`),
 * the first argument of each call. A logger that throws is ignored, never fails a delivery.
 *
 * @example
 * ```ts
 * import { createReceiver, type Logger } from "@tidings/core";
 *
 * // console, pino() and winston.createLogger() are loggers as they are; this one writes JSON lines to stderr.
 * const logger: Logger = {
 *   error: (line) => process.stderr.write(`${JSON.stringify({ level: "error", ...(line as object) })}\n`),
 *   warn: (line) => process.stderr.write(`${JSON.stringify({ level: "warn", ...(line as object) })}\n`),
 * };
 *
 * export const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET!, logger });
 * ```
 */
export interface Logger {
  error(...values: unknown[]): void;
  warn?(...values: unknown[]): void;
  info?(...values: unknown[]): void;
}

/** One line Tidings logs. */
export interface LogLine {
  message: string;
  code?: string;
  [fact: string]: unknown;
}

/** The logger as Tidings calls it: one structured line per call, never a throw. */
export interface SafeLogger {
  error(line: LogLine): void;
  warn(line: LogLine): void;
}

/**
 * An error as plain facts: every logger (winston's JSON format included) prints them, and no `cause` chain leaks.
 * Never throws, whatever the app threw (a Proxy, an object whose `toString` throws).
 */
export function errorFacts(error: unknown): { name?: string; message: string; stack?: string } {
  try {
    if (!(error instanceof Error)) return { message: String(error) };
    const { name, message, stack } = error;
    return { name: String(name), message: String(message), ...(stack && { stack: String(stack) }) };
  } catch {
    return { message: "(an error that cannot be read)" };
  }
}

/** Calls the logger with one object, and swallows what it throws: logging must never change a delivery's outcome. */
export function safeLogger(logger: Logger): SafeLogger {
  const call = (level: "error" | "warn") => (line: LogLine) => {
    try {
      const log = level === "warn" ? (logger.warn ?? logger.error) : logger.error;
      log.call(logger, line);
    } catch {
      // Nowhere left to report it.
    }
  };
  return { error: call("error"), warn: call("warn") };
}
