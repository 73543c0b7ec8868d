// Which peer ranges of our packages refuse the version `npm i <peer>` installs today.
import major from "semver/functions/major.js";
import satisfies from "semver/functions/satisfies.js";

/** The words a README uses to exclude a major on purpose: "`pg-boss@13` is excluded: ..." (any line). */
export const exclusionOf = (name, version) => `${name}@${major(version)}`;

/**
 * @param {{ name: string, peerDependencies?: Record<string, string>, readme: string }[]} packages
 * @param {Record<string, string>} latest the registry's `latest` version of each peer
 * @returns {string[]} one line per peer whose range refuses its latest version without a word in the README
 */
export function peerProblems(packages, latest) {
  const problems = [];
  for (const { name, peerDependencies = {}, readme } of packages) {
    for (const [peer, range] of Object.entries(peerDependencies)) {
      const version = latest[peer];
      if (version === undefined) {
        problems.push(`${name}: the registry has no latest version of ${peer}`);
        continue;
      }
      if (satisfies(version, range)) continue;
      const exclusion = exclusionOf(peer, version);
      const excluded = readme.split("\n").some((line) => line.includes(exclusion) && /exclude/i.test(line));
      if (!excluded) {
        problems.push(
          `${name}: peer ${peer}@"${range}" refuses ${peer}@${version}, what \`npm i ${peer}\` installs today; ` +
            `widen the range (and test on it), or say in its README why \`${exclusion}\` is excluded`,
        );
      }
    }
  }
  return problems;
}
