// What `npm run size` measures and the budget of each (gzipped; 1 KB = 1024 bytes), and the core README's Size tables
// written from its measurements (`npm run size -- --write`). A row per scheme of the catalogue: no list to keep.
export const KB = 1024;

/**
 * Each scheme imported alone (`import { twilio } from "@tidings/core/schemes"`) bundles only what it needs. The
 * budget is the largest scheme measured when it was set (Twilio: 5.51 KB, 5,639 B: its URL spellings, its form reader
 * with URLSearchParams behind it, and SHA-1 matchers) plus about 9 % headroom. Raised from 5.5 KB with the fast paths
 * that read what senders send in fewer instructions, beside the general readers that own every error.
 */
export const SCHEME_LIMIT = 6 * KB;

const BASE = [
  {
    name: "import { verify }",
    readme: "`import { verify }`",
    code: 'export { verify } from "@tidings/core";',
    limit: 2 * KB,
  },
  // Reported, not budgeted: what a Worker (Web Crypto path) pays.
  {
    name: "import { verifyAsync }",
    readme: "`import { verifyAsync }`",
    code: 'export { verifyAsync } from "@tidings/core";',
    limit: undefined,
  },
  {
    name: "the whole core (export *)",
    readme: "everything in the main entry (`export *`)",
    code: 'export * from "@tidings/core";',
    // Raised from 12.5 KB with the URL a scheme may sign (publicUrl, trustProxy), GET handshakes and transactional
    // handlers with their idempotency keys: 14,211 B when set.
    limit: 14.5 * KB,
  },
  // Every sender's scheme at once (39 senders: 26,245 B when set, with their fast paths; about 0.5 KB more per
  // sender); each alone is far less (separate modules, tree-shaken) and has its own budget below.
  {
    name: "every scheme (@tidings/core/schemes, export *)",
    readme: "every scheme (`@tidings/core/schemes`, `export *`)",
    code: 'export * from "@tidings/core/schemes";',
    limit: 27 * KB,
  },
];

/** The factory `@tidings/core/schemes` exports for a scheme: its kebab-case name in camelCase. */
export const factoryName = (scheme) => scheme.replace(/-([a-z0-9])/g, (_match, letter) => letter.toUpperCase());

/** The budgets: the core's, then one per scheme name, in the catalogue's order. */
export function budgets(schemeNames) {
  return [
    ...BASE,
    ...schemeNames.map((scheme) => ({
      name: `import { ${factoryName(scheme)} } from schemes`,
      scheme,
      code: `export { ${factoryName(scheme)} } from "@tidings/core/schemes";`,
      limit: SCHEME_LIMIT,
    })),
  ];
}

const kb = (bytes) => `${(bytes / KB).toFixed(2)} KB`;
const budget = (limit) => (limit === undefined ? "none (reported)" : `${Number((limit / KB).toFixed(2))} KB`);
const gzipped = (row) => `${kb(row.gzipped)} (${row.gzipped.toLocaleString("en-US")} B)`;

export const START = "<!-- Written by `npm run size -- --write` from its measurements; do not edit by hand. -->";
export const END = "<!-- End of `npm run size -- --write`. -->";

/** The README's Size tables: the core's imports, then each scheme alone. */
export function sizeTables(rows) {
  const core = rows.filter((row) => row.scheme === undefined);
  const schemes = rows.filter((row) => row.scheme !== undefined);
  return [
    START,
    "",
    "| import | minified | gzipped | budget (gzipped) |",
    "| --- | --- | --- | --- |",
    ...core.map((row) => `| ${row.readme} | ${kb(row.minified)} | ${gzipped(row)} | ${budget(row.limit)} |`),
    "",
    "Each scheme imported alone, as an app receiving from that one sender bundles it:",
    "",
    "| scheme | import | minified | gzipped | budget (gzipped) |",
    "| --- | --- | --- | --- | --- |",
    ...schemes.map(
      (row) =>
        `| \`${row.scheme}\` | \`import { ${factoryName(row.scheme)} } from "@tidings/core/schemes"\` | ${kb(row.minified)} | ${gzipped(row)} | ${budget(row.limit)} |`,
    ),
    "",
    END,
  ].join("\n");
}

/** The README with its Size tables replaced (between START and END, or the first table of `## Size` the first time). */
export function withSizeTables(readme, tables) {
  const start = readme.indexOf(START);
  if (start !== -1) {
    const end = readme.indexOf(END, start);
    if (end === -1) throw new Error("the README's Size tables have a start mark and no end mark");
    return readme.slice(0, start) + tables + readme.slice(end + END.length);
  }
  const section = readme.indexOf("\n## Size\n");
  const tableStart = readme.indexOf("\n| import |", section);
  if (section === -1 || tableStart === -1) throw new Error("no `## Size` table in the README");
  let tableEnd = tableStart + 1;
  while (readme.startsWith("|", tableEnd)) tableEnd = readme.indexOf("\n", tableEnd) + 1;
  return `${readme.slice(0, tableStart + 1)}${tables}\n${readme.slice(tableEnd)}`;
}
