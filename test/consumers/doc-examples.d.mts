export interface DocExample {
  /** The source file, relative to the root: `packages/core/src/errors.ts`. */
  source: string;
  /** The line of the opening fence in `source`, 1-based: line 1 of the block is the line after it. */
  line: number;
  /** A module name of its own for the block: `packages_core_src_errors_ts_line90.mts`. */
  file: string;
  code: string;
}
export declare function docExamples(root: string): DocExample[];
export declare function locateInSources(output: string, blocks: readonly DocExample[]): string;
