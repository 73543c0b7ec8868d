/** The path of a pinned Node binary: "node22" or "node24". */
export function nodeBinary(alias: "node22" | "node24"): string;
/** Installs test/runtimes/node-versions (its own lock file) unless the binaries it pins are there already. */
export function ensureNodeBinaries(): void;
