import { readFileSync } from "node:fs";
import { expect } from "vitest";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** Each row of the core README's table whose header row starts with `firstColumn`, as its cells. */
export function tableRows(firstColumn: string): string[][] {
  const lines = README.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`| ${firstColumn} |`));
  expect(start, `a table headed "${firstColumn}"`).toBeGreaterThan(-1);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.split(" | ").map((cell) => cell.replace(/^\| |\s*\|$/g, "").trim()));
  }
  return rows;
}
