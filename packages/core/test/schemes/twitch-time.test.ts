import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rfc3339Seconds } from "../../src/schemes/twitch";

const twoDigits = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, "0"));

describe("Twitch's RFC 3339 times, read from their fields", () => {
  it("are the seconds Date.parse reads, and refused where it refuses them", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.tuple(twoDigits, twoDigits, twoDigits, twoDigits, twoDigits),
        fc.constantFrom("Z", "+", "-"),
        fc.tuple(twoDigits, twoDigits),
        fc.boolean(),
        (year, [month, day, hour, minute, second], zone, [offsetHours, offsetMinutes], fraction) => {
          const time = `${String(year).padStart(4, "0")}-${month}-${day}T${hour}:${minute}:${second}`;
          const offset = zone === "Z" ? "Z" : `${zone}${offsetHours}:${offsetMinutes}`;
          const ms = Date.parse(`${time}${offset}`);
          const expected = Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
          expect(rfc3339Seconds(`${time}${fraction ? ".123456789" : ""}${offset}`)).toBe(expected);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it("refuses what is not RFC 3339", () => {
    for (const text of [
      "2023-07-19 10:11:12Z",
      "2023-07-19T10:11:12",
      "2023-07-19T10:11:12.Z",
      "2023-7-19T10:11:12Z",
    ]) {
      expect(rfc3339Seconds(text)).toBeUndefined();
    }
    expect(rfc3339Seconds("2023-07-19T10:11:12.123456789Z")).toBe(Date.parse("2023-07-19T10:11:12Z") / 1000);
  });
});
