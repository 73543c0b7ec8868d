// docs/senders.md, written from the schemes' own `about`: `npm run catalogue` writes it, and a hygiene test fails
// when the committed file is not what the schemes say.
import { catalogue, type Scheme, type SchemeAbout } from "@tidings/core/schemes";

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
const code = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(", ");

function aboutOf(scheme: Scheme): SchemeAbout {
  if (!scheme.about) throw new Error(`The ${scheme.name} scheme has no \`about\`: every catalogue scheme needs one.`);
  return scheme.about;
}

function section(scheme: Scheme): string {
  const about = aboutOf(scheme);
  const rows: [string, string][] = [
    ["headers", code(about.headers)],
    ["signs", about.signs],
    ["secret", about.secret],
    ["replay window", about.replay],
    ["dedup key", `${about.dedup.key} (${about.dedup.signed ? "signed" : "not signed"})`],
    ["handshake", about.handshake ?? "none"],
    ["tested against", about.testedAgainst],
    ["docs", `<${about.docs}>`],
  ];
  return [
    `## ${about.sender}`,
    "",
    `\`import { ${factoryName(scheme)} } from "@tidings/core/schemes"\``,
    "",
    "| | |",
    "| --- | --- |",
    ...rows.map(([name, value]) => `| ${name} | ${cell(value)} |`),
  ].join("\n");
}

/** The factory's name: the scheme's kebab-case name in camelCase (`standard-webhooks` → `standardWebhooks`). */
const factoryName = (scheme: Scheme) =>
  scheme.name.replace(/-([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());

export function renderCatalogue(): string {
  const schemes = [...catalogue()].sort((a, b) => aboutOf(a).sender.localeCompare(aboutOf(b).sender));
  const summary = schemes.map((scheme) => {
    const about = aboutOf(scheme);
    const dedup = about.dedup.signed ? "signed" : "not signed";
    return `| [${cell(about.sender)}](#${anchor(about.sender)}) | \`${scheme.name}\` | ${cell(about.replay)} | ${dedup} | ${about.handshake ? "yes" : "no"} |`;
  });
  return `${[
    "# Senders",
    "",
    "<!-- Written by `npm run catalogue` from each scheme's `about` in `@tidings/core/schemes`; do not edit by hand. -->",
    "",
    `${schemes.length} senders. Each is a scheme of \`@tidings/core/schemes\`, built with the public \`defineScheme\`,`,
    "tested against the sender's own SDK where one signs or verifies (the interop workspace), and handled by every",
    "adapter, store and queue the same way. What each row means: `headers`, the request headers the scheme reads;",
    "`signs`, the bytes the signature covers; `replay window`, how old a signed delivery may be; `dedup key`, what",
    "deliveries of one event share, and whether the signature covers it (an unsigned key can be changed by whoever",
    "replays a captured delivery: the scheme then falls back on what is signed where it can).",
    "",
    "| sender | scheme | replay window | dedup key | handshake |",
    "| --- | --- | --- | --- | --- |",
    ...summary,
    "",
    ...schemes.map((scheme) => `${section(scheme)}\n`),
  ].join("\n")}`;
}

/** GitHub's heading anchor: lower-case, spaces to dashes, other punctuation dropped. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, "")
    .replaceAll(" ", "-");
}
