/** One line of a unified diff as the revision view shows it. */
export interface DiffRow {
  kind: 'hunk' | 'context' | 'added' | 'removed' | 'note';
  /** Its number in the older text (removed and context lines), else null. */
  oldLine: number | null;
  /** Its number in the newer text (added and context lines), else null. */
  newLine: number | null;
  /** The line without its `+`, `-` or space marker (the whole line for hunks and notes). */
  text: string;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * Reads a unified diff (as `GET /api/rules/<kind>/:id/diff/` answers it) into numbered rows; the file
 * headers (`---`, `+++`) are left out, since both sides are revisions of the same rule.
 */
export function parseUnifiedDiff(diff: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  const lines = diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
      rows.push({ kind: 'hunk', oldLine: null, newLine: null, text: line });
    } else if (!inHunk) {
      // The file headers and anything before the first hunk.
      continue;
    } else if (line.startsWith('+')) {
      rows.push({ kind: 'added', oldLine: null, newLine: newLine++, text: line.slice(1) });
    } else if (line.startsWith('-')) {
      rows.push({ kind: 'removed', oldLine: oldLine++, newLine: null, text: line.slice(1) });
    } else if (line.startsWith('\\')) {
      rows.push({ kind: 'note', oldLine: null, newLine: null, text: line });
    } else {
      rows.push({ kind: 'context', oldLine: oldLine++, newLine: newLine++, text: line.slice(1) });
    }
  }
  return rows;
}

/** How many lines a diff adds and removes. */
export function diffStats(rows: readonly DiffRow[]): { added: number; removed: number } {
  return {
    added: rows.filter((row) => row.kind === 'added').length,
    removed: rows.filter((row) => row.kind === 'removed').length,
  };
}
