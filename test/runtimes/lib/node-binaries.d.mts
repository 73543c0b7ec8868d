export type NodeAlias = "node22" | "node24" | "node26";
/** The Node binaries node-versions/ pins. */
export const NODE_ALIASES: readonly NodeAlias[];
/** Path of a Node binary of node-versions/. */
export function nodeBinary(alias: NodeAlias): string;
/** Installs node-versions/ unless its pinned binaries are there already. */
export function ensureNodeBinaries(): void;
