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

/** The packages a Markdown file tells the reader to install (`npm i …` / `npm install …` lines in `sh` blocks). */
function installedPackages(fences) {
  const names = new Set();
  for (const fence of fences.filter((fence) => fence.lang === "sh")) {
    for (const line of fence.code.split("\n")) {
      const command = /^\s*npm (?:i|install)\s+(.*)$/.exec(line);
      if (!command?.[1]) continue;
      for (const word of command[1].split(/\s+/)) {
        if (word === "" || word.startsWith("-") || word.startsWith("#")) continue;
        names.add(word.replace(/(.)@[^/]*$/, "$1"));
      }
    }
  }
  return names;
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
 * Every complete TypeScript block of every tracked Markdown file, as `{ readme, line, file, code }`. Throws when a
 * block imports a package that its file's install lines leave out: an example must run after its own `npm i`.
 */
export function readmeBlocks(root) {
  const listed = spawnSync("git", ["ls-files", "*.md"], { cwd: root, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const blocks = [];
  const problems = [];
  for (const readme of listed.stdout.split("\n").filter(Boolean)) {
    const markdown = readFileSync(join(root, readme), "utf8");
    // `npx tidings` would fetch and run whatever the registry holds under that unscoped name, which is not ours.
    if (/\bnpx tidings\b/.test(markdown)) problems.push(`${readme} runs \`npx tidings\`: write \`npx @tidings/cli\``);
    const fences = fencesOf(markdown);
    const installed = installedPackages(fences);
    for (const fence of fences) {
      if (!TYPESCRIPT.has(fence.lang) || fence.flags.includes("fragment")) continue;
      const file = `${readme.replace(/[^A-Za-z0-9]+/g, "_")}_line${fence.line}.mts`;
      blocks.push({ readme, line: fence.line, file, code: fence.code });
      if (installed.size === 0) continue;
      const missing = importedPackages(fence.code).filter((name) => !installed.has(name));
      if (missing.length > 0) {
        problems.push(`${readme}:${fence.line} imports ${missing.join(", ")}, which its npm install line omits`);
      }
    }
  }
  if (problems.length > 0) throw new Error(problems.join("\n"));
  return blocks;
}
