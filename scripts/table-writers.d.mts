/** A file whose SQL names its table at run time, with the tables it may write and why. */
export interface DynamicWriter {
  file: string;
  tables: string[];
  reason: string;
}
/** A table a second module may write, and why. */
export interface WriterException {
  table: string;
  module: string;
  reason: string;
}
export const dynamicWriters: DynamicWriter[];
export const exceptions: WriterException[];
/** The module a file (relative to the scanned folder) belongs to. */
export function moduleOf(file: string): string;
/** The writes in one file's text; `table` is null when the SQL names its table only at run time. */
export function writesIn(fileName: string, text: string): { table: string | null; kind: string; line: number }[];
export interface TableWritersResult {
  files: number;
  tables: number;
  /** Table → the modules that write it (exceptions included). */
  owners: Record<string, string[]>;
  conflicts: { table: string; modules: { module: string; places: string[] }[] }[];
  undeclared: string[];
  stale: string[];
}
/** Which modules write which tables under `root`, and what breaks the one-writer rule. */
export function checkTableWriters(
  root: string,
  options?: { dynamicWriters?: DynamicWriter[]; exceptions?: WriterException[] },
): TableWritersResult;
/** The lines the checker prints, and whether the tree passes. */
export function report(result: TableWritersResult): { ok: boolean; lines: string[] };
