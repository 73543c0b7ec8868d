import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formEvent, formFields } from "../../src/schemes/form-fields";

const pairs = fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 12 });
const grouped = (list: [string, string][]) => {
  const map = new Map<string, string[]>();
  for (const [name, value] of list) map.set(name, [...(map.get(name) ?? []), value]);
  return map;
};
// How a browser, Twilio or Slack writes a form: each byte outside the unreserved set %-escaped, a space as `+`.
const encode = (text: string) => encodeURIComponent(text).replaceAll("%20", "+");

describe("form fields", () => {
  it("reads back any form, in order, a repeated name with each of its values", () => {
    fc.assert(
      fc.property(pairs, (list) => {
        const wellFormed = list.map(([n, v]) => [n.toWellFormed(), v.toWellFormed()] as [string, string]);
        const body = wellFormed.map(([name, value]) => `${encode(name)}=${encode(value)}`).join("&");
        expect(formFields(new TextEncoder().encode(body))).toEqual(grouped(wellFormed));
        expect(formFields(new URLSearchParams(wellFormed).toString())).toEqual(grouped(wellFormed));
      }),
    );
  });

  it("decodes `+` as a space and %-escapes as UTF-8, and keeps a `%` that escapes nothing", () => {
    expect(formFields("a=x+y%2Bz&b=%C3%A9t%C3%A9&c=100%&d=%zz&e&=f")).toEqual(
      new Map([
        ["a", ["x y+z"]],
        ["b", ["été"]],
        ["c", ["100%"]],
        ["d", ["%zz"]],
        ["e", [""]],
        ["", ["f"]],
      ]),
    );
  });

  it("keeps a leading `?` as part of the first name, and skips empty pairs", () => {
    expect(formFields("?a=1&&b=2&")).toEqual(
      new Map([
        ["?a", ["1"]],
        ["b", ["2"]],
      ]),
    );
  });

  it("gives one value as a string, several as an array, and any name as an own field", () => {
    const event = formEvent(formFields("To=1&MediaUrl=a&MediaUrl=b&__proto__=x&constructor=y"));
    expect([event.To, event.MediaUrl, Object.getOwnPropertyDescriptor(event, "__proto__")?.value]).toEqual([
      "1",
      ["a", "b"],
      "x",
    ]);
    expect(Object.keys(event)).toEqual(["To", "MediaUrl", "__proto__", "constructor"]);
    expect(event.constructor).toBe("y");
    expect(Object.getPrototypeOf(event)).toBeNull();
  });
});
