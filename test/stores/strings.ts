import fc from "fast-check";

const fromCode = (min: number, max: number) => fc.integer({ min, max }).map((code) => String.fromCharCode(code));
/** Lone surrogates (JSON's `\uD800` escape yields one) and U+FFFD, what a UTF-8 encoder replaces them with. */
const unpaired = fc.oneof(fromCode(0xd800, 0xdfff), fc.constant("\uFFFD"));
/** Any UTF-16 code unit, lone surrogates often, and the characters dedup keys are built from. */
const unit = fc.oneof(fromCode(0, 0xffff), unpaired, fc.constantFrom(":", "%", "\uD83D\uDE00", "a"));

/** A string as an event id or an endpoint label can be. */
export const anyString = (options: { minLength?: number; maxLength?: number } = {}) =>
  fc.string({ unit, maxLength: 8, ...options });

/**
 * Two strings that differ, if at all, only where one has a lone surrogate or U+FFFD: the pairs an encoding that
 * replaces lone surrogates would merge.
 */
export const nearStrings = () =>
  fc.array(fc.tuple(unit, fc.option(unpaired, { nil: undefined })), { maxLength: 8 }).map((units) => {
    const first = units.map(([char]) => char).join("");
    const second = units.map(([char, swap]) => (swap !== undefined && unpairedChar(char) ? swap : char)).join("");
    return [first, second] as const;
  });

const unpairedChar = (char: string) => char === "\uFFFD" || (char.length === 1 && /[\uD800-\uDFFF]/.test(char));
