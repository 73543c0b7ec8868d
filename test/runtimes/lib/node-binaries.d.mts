/** Path of a Node binary of node-versions/: `node22` or `node24`. */
export function nodeBinary(alias: "node22" | "node24"): string;
/** Installs node-versions/ unless its pinned binaries are there already. */
export function ensureNodeBinaries(): void;
