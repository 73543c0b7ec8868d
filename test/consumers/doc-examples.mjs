// The TypeScript blocks of the `@example` tags in the published packages' sources, for the readme-blocks consumer
// fixture (see README.md beside this file) and the quick check in test/api. Every `/** … */` comment of every source
// file counts, not only those of exported declarations. A block whose info string says `ts fragment` is skipped.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const TYPESCRIPT = new Set(["ts", "typescript"]);

/** The `.ts` sources under `src` of every package under `<root>/packages` that is published (not `private`). */
function publishedSources(root) {
  const packages = join(root, "packages");
  return readdirSync(packages)
    .sort()
    .flatMap((name) => {
      const manifest = join(packages, name, "package.json");
      const src = join(packages, name, "src");
      if (!existsSync(manifest) || !existsSync(src) || JSON.parse(readFileSync(manifest, "utf8")).private) return [];
      return readdirSync(src, { recursive: true })
        .filter((file) => /\.m?ts$/.test(file) && !/\.d\.m?ts$|\.test\.m?ts$/.test(file))
        .sort()
        .map((file) => join(src, file));
    });
}

/** Every comment of a source file, as `{ pos, text }`: the trivia around every token of the parsed file. */
function commentsOf(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = new Map();
  const collect = (ranges) => {
    for (const range of ranges ?? []) found.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...found].sort(([a], [b]) => a - b).map(([pos, comment]) => ({ pos, text: comment }));
}

/**
 * The TypeScript fences inside the `@example` sections of one doc comment, as `{ offset, code }` where `offset` is
 * the fence's line within the comment. An `@example` section runs to the next block tag outside a fence.
 */
function examplesOfComment(comment) {
  const lines = comment
    .slice(3, -2)
    .split("\n")
    .map((line, index) => (index === 0 ? line : line.replace(/^\s*\*(?: |$)/, "")));
  const examples = [];
  let inExample = false;
  let fence;
  for (const [offset, line] of lines.entries()) {
    const marker = /^\s*```(.*)$/.exec(line);
    if (fence) {
      if (marker && marker[1].trim() === "") {
        if (fence.keep) examples.push({ offset: fence.offset, code: `${fence.lines.join("\n")}\n` });
        fence = undefined;
      } else fence.lines.push(line);
    } else if (marker) {
      const [lang = "", ...flags] = marker[1].trim().split(/\s+/);
      const keep = inExample && TYPESCRIPT.has(lang) && !flags.includes("fragment");
      fence = { offset, keep, lines: [] };
    } else if (/^\s*@\w+/.test(line)) inExample = /^\s*@example\b/.test(line);
  }
  return examples;
}

/**
 * Every `@example` TypeScript block of every published package's sources, as `{ source, line, file, code }`:
 * `source` the file relative to `root`, `line` the fence's line there (1-based), `file` a module name for the block.
 */
export function docExamples(root) {
  const blocks = [];
  for (const path of publishedSources(root)) {
    const source = relative(root, path).split("\\").join("/");
    const text = readFileSync(path, "utf8");
    for (const comment of commentsOf(path, text).filter((entry) => entry.text.startsWith("/**"))) {
      const commentLine = text.slice(0, comment.pos).split("\n").length;
      for (const { offset, code } of examplesOfComment(comment.text)) {
        const line = commentLine + offset;
        blocks.push({ source, line, file: `${source.replace(/[^A-Za-z0-9]+/g, "_")}_line${line}.mts`, code });
      }
    }
  }
  return blocks;
}

/** Rewrites `<block file>(row,col)` in a compiler's output to the source line it came from: `<source>:<line>`. */
export function locateInSources(output, blocks) {
  const byFile = new Map(blocks.map((block) => [block.file, block]));
  return output.replace(/(?:\S*\/)?([A-Za-z0-9_]+\.mts)\((\d+),\d+\)/g, (whole, file, row) => {
    const block = byFile.get(file);
    return block ? `${block.source}:${block.line + Number(row)}` : whole;
  });
}
