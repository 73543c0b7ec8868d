// The TypeScript blocks of the repository's Markdown files, for the readme-blocks consumer fixture (see README.md
// beside this file). A block whose info string says `ts fragment` is deliberately incomplete and is skipped.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const TYPESCRIPT = new Set(["ts", "typescript"]);

/** The package names a block imports (`node:` builtins and relative paths left out). */
export function importedPackages(code) {
  const statements = /^\s*(?:import|export)\s(?:[^;=()"']*?\sfrom\s*)?["']([^"']+)["']/gm;
  const specifiers = [...code.matchAll(statements)].map((match) => match[1]);
  return specifiers
    .filter((specifier) => !specifier.startsWith(".") && !specifier.startsWith("node:"))
    .map((specifier) =>
      specifier
        .split("/")
        .slice(0, specifier.startsWith("@") ? 2 : 1)
        .join("/"),
    );
}

/**
 * What each install line of a Markdown file installs: one Set per shell line of its `sh` blocks, the names of every
 * `npm i …` / `npm install …` command on it (`npm i a b && npm i -D @types/a` is one line).
 */
function installLines(fences) {
  const lines = [];
  for (const fence of fences.filter((fence) => fence.lang === "sh")) {
    for (const line of fence.code.split("\n")) {
      const names = new Set();
      for (const command of line.split("&&")) {
        const install = /^\s*npm (?:i|install)\s+(.*)$/.exec(command);
        if (!install?.[1]) continue;
        for (const word of install[1].split(/\s+/)) {
          if (word.startsWith("#")) break;
          if (word === "" || word.startsWith("-")) continue;
          names.add(word.replace(/(.)@[^/]*$/, "$1"));
        }
      }
      if (names.size > 0) lines.push(names);
    }
  }
  return lines;
}

/**
 * What a block needs installed: the install lines that install its imports, whole. The imports fewest lines install
 * choose first, and a line already chosen serves the rest, so an example of one framework gets that framework's line.
 */
function installsFor(imported, lines) {
  const linesOf = (name) => lines.filter((line) => line.has(name));
  const chosen = new Set();
  for (const name of [...imported].sort((a, b) => linesOf(a).length - linesOf(b).length)) {
    const candidates = linesOf(name);
    if (candidates.length > 0 && !candidates.some((line) => chosen.has(line))) chosen.add(candidates[0]);
  }
  return [...new Set([...chosen].flatMap((line) => [...line]))].sort();
}

function fencesOf(markdown) {
  const fences = [];
  let open;
  for (const [index, line] of markdown.split("\n").entries()) {
    const fence = /^```(.*)$/.exec(line);
    if (!fence) {
      if (open) open.lines.push(line);
    } else if (open) {
      fences.push({ ...open, code: `${open.lines.join("\n")}\n` });
      open = undefined;
    } else {
      const [lang = "", ...flags] = (fence[1] ?? "").trim().split(/\s+/);
      open = { lang, flags, line: index + 1, lines: [] };
    }
  }
  return fences;
}

/**
 * Every complete TypeScript block of every tracked Markdown file, as `{ readme, line, file, code, installs,
 * skipLibCheck, prismaSchema }`: `installs` is what the block needs installed, read from the file's install lines
 * (empty when it has none), `skipLibCheck` whether the file tells the reader to set it, and `prismaSchema` the file's
 * last ` ```prisma ` block before it where its installs include `prisma` (its client is generated from that schema,
 * as `prisma/schema.prisma`). Throws when a block imports a package that its file's install lines leave out: an
 * example must run after its own `npm i`.
 */
export function readmeBlocks(root) {
  const listed = spawnSync("git", ["ls-files", "*.md"], { cwd: root, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const blocks = [];
  const problems = [];
  // API reports (`*.api.md`, API Extractor's) list declarations, not code to run: they are checked by `npm run api`.
  const markdownFiles = listed.stdout.split("\n").filter((file) => file !== "" && !file.endsWith(".api.md"));
  for (const readme of markdownFiles) {
    const markdown = readFileSync(join(root, readme), "utf8");
    // `npx tidings` would fetch and run whatever the registry holds under that unscoped name, which is not ours.
    if (/\bnpx tidings\b/.test(markdown)) problems.push(`${readme} runs \`npx tidings\`: write \`npx @tidings/cli\``);
    const fences = fencesOf(markdown);
    const lines = installLines(fences);
    const installed = new Set(lines.flatMap((line) => [...line]));
    const skipLibCheck = /`skipLibCheck`/.test(markdown);
    for (const fence of fences) {
      if (!TYPESCRIPT.has(fence.lang) || fence.flags.includes("fragment")) continue;
      const file = `${readme.replace(/[^A-Za-z0-9]+/g, "_")}_line${fence.line}.mts`;
      const imported = importedPackages(fence.code);
      const installs = installsFor(imported, lines);
      const schema = fences.filter((other) => other.lang === "prisma" && other.line < fence.line).at(-1);
      blocks.push({
        readme,
        line: fence.line,
        file,
        code: fence.code,
        installs,
        skipLibCheck,
        ...(schema && installs.includes("prisma") && { prismaSchema: schema.code }),
      });
      if (installed.size === 0) continue;
      const missing = imported.filter((name) => !installed.has(name));
      if (missing.length > 0) {
        problems.push(`${readme}:${fence.line} imports ${missing.join(", ")}, which its npm install line omits`);
      }
    }
  }
  if (problems.length > 0) throw new Error(problems.join("\n"));
  return blocks;
}
