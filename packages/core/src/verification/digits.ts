/**
 * The number 1 to 15 ASCII digits write (what `isTimestampText` admits: a Number holds it exactly), read in one pass
 * over the text; -1 for any other text. Where a time is checked and then used, this does both at once.
 */
export function digitsValue(text: string): number {
  const length = text.length;
  if (length === 0 || length > 15) return -1;
  let value = 0;
  for (let index = 0; index < length; index++) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
