/** The import graph of the files under `folders`: file → the files of the graph it imports. */
export function importGraph(root: string, folders: readonly string[]): Map<string, string[]>;
/** Each import cycle as a chain of files whose last element is its first. */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][];
/** A chain as `a.ts → b.ts → a.ts`, paths relative to `root`. */
export function formatCycle(root: string, chain: readonly string[]): string;
