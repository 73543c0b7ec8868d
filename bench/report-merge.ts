/**
 * Folds the report of a run of some suites (`--only=queue`) into an existing report, so re-measuring one suite keeps
 * every other suite's figures: the run's suite sections replace the sections of the same number (or heading), or are
 * added at the end; its rows of the Targets tables replace the rows of the same target and the others stay; the
 * machine table gets one row saying when and how that run was made. Everything else is the existing report's.
 */

interface Section {
  /** "## 5." for a numbered section, else the whole heading line; "" for the text before the first heading. */
  key: string;
  lines: string[];
}

function sectionKey(heading: string): string {
  return /^## \d+\./.exec(heading)?.[0] ?? heading;
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
const firstCell = (row: string) => row.split("|")[1]?.trim() ?? "";

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
    else body[at] = row;
  }
  lines.splice(table.header + 2, table.end - table.header - 2, ...body);
  return true;
}

/** Merges each table of `from` into the table of `into` with the same header, or appends it with the text above it. */
function mergeTargets(into: Section, from: Section): void {
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

/**
 * `partial`: the run's own rendering. `suiteKeys`: the section keys of the suites it ran (e.g. "## 5.").
 * `machineRow`: `| what | when and how |`, added to (or replacing its namesake in) the machine table.
 */
export function mergeReport(existing: string, partial: string, suiteKeys: readonly string[], machineRow: string) {
  const merged = sections(existing);
  const find = (key: string) => merged.find((section) => section.key === key);
  for (const section of sections(partial)) {
    if (section.key === "## Targets") {
      const targets = find(section.key);
      if (targets) mergeTargets(targets, section);
      else merged.push(section);
    } else if (suiteKeys.includes(section.key)) {
      const at = merged.findIndex((candidate) => candidate.key === section.key);
      if (at === -1) merged.push(section);
      else merged[at] = section;
    }
  }
  const machine = find("## Machine and commands");
  const machineTable = machine && tables(machine.lines)[0];
  if (machine && machineTable) mergeRows(machine.lines, machine.lines[machineTable.header] ?? "", [machineRow]);
  return merged.flatMap((section) => section.lines).join("\n");
}
