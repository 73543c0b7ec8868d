import { readFileSync } from "node:fs";
import { InvalidArgumentError } from "commander";

/** commander `argParser`s: a bad value becomes commander's one-line "option … argument … is invalid" error. */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `Expected a whole number ≥ ${min}.`
          : `Expected a whole number ${min}–${max}.`,
      );
    }
    return number;
  };
}

export function positiveNumber(min: number) {
  return (value: string): number => {
    const number = value.trim() === "" ? Number.NaN : Number(value);
    if (!Number.isFinite(number) || number < min) throw new InvalidArgumentError(`Expected a number ≥ ${min}.`);
    return number;
  };
}

export function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError("Expected an absolute http:// or https:// URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidArgumentError("Expected an http:// or https:// URL.");
  }
  return url.href;
}

export function jsonObject(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('Expected a JSON object, e.g. \'{"to":"+15551234567"}\'.');
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new InvalidArgumentError("Expected a JSON object, not an array or a single value.");
  }
  return parsed as Record<string, unknown>;
}

export function nonEmpty(value: string): string {
  if (value === "") throw new InvalidArgumentError("Expected a non-empty value.");
  return value;
}

export function probability(value: string): number {
  const number = value.trim() === "" ? Number.NaN : Number(value);
  if (!(number >= 0 && number <= 1)) throw new InvalidArgumentError("Expected a probability from 0 to 1.");
  return number;
}

/** `MIN-MAX` or a single `N` (= `N-N`), whole numbers. */
export function wholeRange(value: string): [number, number] {
  const match = /^(\d+)(?:-(\d+))?$/.exec(value.trim());
  const min = Number(match?.[1]);
  const max = Number(match?.[2] ?? match?.[1]);
  if (!match || !Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) {
    throw new InvalidArgumentError("Expected MIN-MAX in whole milliseconds, MIN ≤ MAX (e.g. 0-500).");
  }
  return [min, max];
}

/** A file's text, read when the option is parsed: a missing file is the option's error, before anything is sent. */
export function fileText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new InvalidArgumentError(
      `Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
    );
  }
}
