import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../src/entries";
import { MAX_SIGNATURE_HEADER_LENGTH, MAX_SIGNATURE_HEADER_PAIRS } from "../src/verification/constants";
import { tableRows } from "./readme-tables";

const UNITS: Record<string, number> = { ms: 1, s: 1000, min: 60_000, h: 3_600_000, B: 1, KiB: 1024, MiB: 1024 ** 2 };

/** A quantity as the README writes it ("1 MiB", "10 s", "100,000"), in the unit its option's name says. */
function quantity(text: string, option: string): number {
  const match = /^([\d,.]+)\s*(ms|s|min|h|B|KiB|MiB)?\b/.exec(text);
  expect(match, `a quantity in "${text}"`).not.toBeNull();
  const [, digits = "", unit] = match as RegExpExecArray;
  const value = Number(digits.replaceAll(",", "")) * (unit ? (UNITS[unit] as number) : 1);
  // Durations are written in the unit a reader counts in; option names say the unit the code takes.
  return option.endsWith("Seconds") && unit ? value / 1000 : value;
}

type DefaultName = keyof typeof DEFAULTS;
const isDefault = (name: string): name is DefaultName => Object.hasOwn(DEFAULTS, name);
const optionsIn = (cell: string) => [...cell.matchAll(/`([A-Za-z]+)`/g)].map((match) => match[1] as string);

describe("the core README's tables of defaults and bounds", () => {
  it("give each option's default as DEFAULTS has it", () => {
    const checked: string[] = [];
    for (const [names = "", stated = ""] of tableRows("option")) {
      // "`toleranceSeconds`, `now` | 300, `Date.now`": the n-th name takes the n-th value.
      const values = stated.split(/,\s(?=[\d`])/);
      optionsIn(names).forEach((name, index) => {
        if (!isDefault(name)) return;
        expect(quantity(values[index] ?? "", name), `README's default of ${name}`).toBe(DEFAULTS[name]);
        checked.push(name);
      });
    }
    const documented = Object.keys(DEFAULTS).filter((name) => name !== "memoryStoreMaxEntries");
    expect(checked.sort()).toEqual(documented.sort());
  });

  it("give each bound's default as the code has it", () => {
    const bounds: Record<string, number> = {
      ...DEFAULTS,
      maxEntries: DEFAULTS.memoryStoreMaxEntries,
    };
    let checked = 0;
    for (const [, stated = ""] of tableRows("bound")) {
      for (const match of stated.matchAll(/`([A-Za-z]+)` ([\d,.]+(?: (?:ms|s|min|h|B|KiB|MiB))?)/g)) {
        const [, name = "", value = ""] = match;
        expect(bounds, `the bound ${name}`).toHaveProperty(name);
        expect(quantity(value, name), `README's bound ${name}`).toBe(bounds[name]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(7);
    const [, header = ""] = tableRows("bound").find(([bound]) => bound === "`Service-Signature` header") ?? [];
    expect(header).toBe(`${MAX_SIGNATURE_HEADER_LENGTH / 1024} KiB, ${MAX_SIGNATURE_HEADER_PAIRS} pairs`);
  });
});
