/**
 * Folds the report of a run of some suites (`--only=queue`) into an existing report, so re-measuring one suite keeps
 * every other suite's figures: the run's suite sections replace the sections of the same number (or heading), or are
 * added at the end; its rows of the Targets tables replace the rows of the same target and the others stay, cell by
 * cell where a row joins two suites' figures (a cell the run left empty, "not run" or "n/a" keeps the existing one);
 * its errors replace the errors of the suites it ran; the machine table gets one row saying when and how that run
 * was made; the text above the first section and above the first Targets table, which no measurement changes, is the
 * run's. Everything else is the existing report's.
 */

interface Section {
  /** "## 5." for a numbered section, else the whole heading line; "" for the text before the first heading. */
  key: string;
  lines: string[];
}

/** `## 2.` for a numbered section, else the heading up to its colon: `## Schemes` for `## Schemes: each sender's…`. */
function sectionKey(heading: string): string {
  return /^## (?:\d+\.|[^:]+)/.exec(heading)?.[0] ?? heading;
}

function sections(markdown: string): Section[] {
  const parsed: Section[] = [{ key: "", lines: [] }];
  for (const line of markdown.split("\n")) {
    if (line.startsWith("## ")) parsed.push({ key: sectionKey(line), lines: [line] });
    else parsed[parsed.length - 1]?.lines.push(line);
  }
  return parsed;
}

const isRow = (line: string) => line.startsWith("|");
const cells = (row: string) => row.split("|").slice(1, -1);
const firstCell = (row: string) => cells(row)[0]?.trim() ?? "";
const UNFILLED = new Set(["", "not run", "n/a"]);

/** `row`'s cells, except where it left one unfilled and `existing` has it. */
function fillFrom(existing: string, row: string): string {
  const old = cells(existing);
  const merged = cells(row).map((cell, index) => (UNFILLED.has(cell.trim()) ? (old[index] ?? cell) : cell));
  return `|${merged.join("|")}|`;
}

/** The tables of a section: the index of each header line, and the rows below its separator line. */
function tables(lines: readonly string[]): { header: number; end: number }[] {
  const found: { header: number; end: number }[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (!isRow(lines[index] ?? "") || (index > 0 && isRow(lines[index - 1] ?? ""))) continue;
    let end = index;
    while (end < lines.length && isRow(lines[end] ?? "")) end++;
    found.push({ header: index, end });
  }
  return found;
}

/** Each of `rows` replaces the row of `lines`' table under `header` with the same first cell, or is appended to it. */
function mergeRows(lines: string[], header: string, rows: readonly string[]): boolean {
  const table = tables(lines).find((candidate) => lines[candidate.header] === header);
  if (!table) return false;
  const body = lines.slice(table.header + 2, table.end);
  for (const row of rows) {
    const at = body.findIndex((existing) => firstCell(existing) === firstCell(row));
    if (at === -1) body.push(row);
    else body[at] = fillFrom(body[at] as string, row);
  }
  lines.splice(table.header + 2, table.end - table.header - 2, ...body);
  return true;
}

/**
 * Takes `from`'s text above its first table (how targets are judged: no measurement changes it), then merges each table
 * of `from` into the table of `into` with the same header, or appends it with the text above it.
 */
function mergeTargets(into: Section, from: Section): void {
  const [intoFirst, fromFirst] = [tables(into.lines)[0], tables(from.lines)[0]];
  if (intoFirst && fromFirst) into.lines.splice(1, intoFirst.header - 1, ...from.lines.slice(1, fromFirst.header));
  let textStart = 1;
  for (const { header, end } of tables(from.lines)) {
    const headerLine = from.lines[header] ?? "";
    if (!mergeRows(into.lines, headerLine, from.lines.slice(header + 2, end))) {
      const trailing = into.lines.length > 0 && into.lines[into.lines.length - 1] === "" ? into.lines.pop() : undefined;
      into.lines.push(...from.lines.slice(textStart, end), ...(trailing === undefined ? [] : [trailing]));
    }
    textStart = end;
  }
}

const ERRORS = "## Errors";
/** An error line names its suite first: `- http express: …`. */
const errorLines = (section: Section | undefined) => section?.lines.filter((line) => line.startsWith("- ")) ?? [];

/** The existing errors of the suites not run again, then the run's; no section when none are left. */
function mergeErrors(merged: Section[], partial: Section | undefined, suites: readonly string[]): void {
  const at = merged.findIndex((section) => section.key === ERRORS);
  const kept = errorLines(merged[at]).filter((line) => !suites.includes(line.slice(2).split(" ")[0] as string));
  const lines = [...kept, ...errorLines(partial)];
  const section = { key: ERRORS, lines: [ERRORS, "", ...lines, ""] };
  if (at !== -1) merged.splice(at, 1, ...(lines.length > 0 ? [section] : []));
  else if (lines.length > 0) {
    const targets = merged.findIndex((candidate) => candidate.key === "## Targets");
    merged.splice(targets === -1 ? merged.length : targets, 0, section);
  }
}

/**
 * `partial`: the run's own rendering. `suites`: the suites it ran, by name and by section key (e.g. "queue", "## 5.").
 * `machineRow`: `| what | when and how |`, added to (or replacing its namesake in) the machine table; none when the
 * sections were drawn again from stored results.
 */
export function mergeReport(
  existing: string,
  partial: string,
  suites: { names: readonly string[]; keys: readonly string[] },
  machineRow: string | undefined,
) {
  const merged = sections(existing);
  const find = (key: string) => merged.find((section) => section.key === key);
  const partialSections = sections(partial);
  mergeErrors(
    merged,
    partialSections.find((section) => section.key === ERRORS),
    suites.names,
  );
  for (const section of partialSections) {
    if (section.key === "") merged[0] = section;
    else if (section.key === "## Targets") {
      const targets = find(section.key);
      if (targets) mergeTargets(targets, section);
      else merged.push(section);
    } else if (suites.keys.includes(section.key)) {
      const at = merged.findIndex((candidate) => candidate.key === section.key);
      if (at === -1) merged.push(section);
      else merged[at] = section;
    }
  }
  const machine = find("## Machine and commands");
  const machineTable = machine && tables(machine.lines)[0];
  if (machine && machineTable && machineRow)
    mergeRows(machine.lines, machine.lines[machineTable.header] ?? "", [machineRow]);
  return merged.flatMap((section) => section.lines).join("\n");
}
