import { describe, expect, it } from "vitest";
import { STATUS_BY_CODE } from "../src/entries";
import { tableRows } from "./readme-tables";

const codeIn = (text: string) => [...text.matchAll(/`([a-z_]+)`/g)].map((match) => match[1] as string);

/** Every (code, status) the README states: the error table's codes, and the Receiver table's "503 `code`" cells. */
function statedStatuses(): [code: string, status: number][] {
  const stated: [string, number][] = [];
  for (const [codes = "", status = ""] of tableRows("code")) {
    for (const code of codeIn(codes)) stated.push([code, Number(status)]);
  }
  for (const [, status = ""] of tableRows("case")) {
    const match = /^(\d{3}) `([a-z_]+)`/.exec(status);
    if (match) stated.push([match[2] as string, Number(match[1])]);
  }
  return stated;
}

describe("the core README's status tables", () => {
  it("state every code's status as the code table (STATUS_BY_CODE) has it", () => {
    const stated = statedStatuses();
    expect(stated.length).toBeGreaterThan(20);
    for (const [code, status] of stated) {
      expect(STATUS_BY_CODE, `README names ${code}`).toHaveProperty(code);
      expect(status, `README's status of ${code}`).toBe(STATUS_BY_CODE[code as keyof typeof STATUS_BY_CODE]);
    }
  });

  it("name every code a delivery can be answered with", () => {
    const named = new Set(statedStatuses().map(([code]) => code));
    expect(Object.keys(STATUS_BY_CODE).filter((code) => !named.has(code))).toEqual([]);
  });
});
