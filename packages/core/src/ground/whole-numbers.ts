/** An option that must be a whole number above zero; TypeError at setup otherwise. */
export function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`${name} must be a positive whole number`);
  return value;
}

/** An option that may be zero (none, or turned off) or a positive whole number; TypeError at setup otherwise. */
export function wholeNumber(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${name} must be 0 or a positive whole number`);
  return value;
}
