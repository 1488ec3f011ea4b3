/** One line of an edit script: kept (' '), removed ('-') or added ('+'). */
interface Edit {
  op: ' ' | '-' | '+';
  text: string;
  /** 1-based line in the old text (kept and removed lines) and in the new one (kept and added). */
  a: number;
  b: number;
}

/** Above this many cells the changed middle is shown as removed then added, not aligned line by line. */
const MAX_CELLS = 4_000_000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The edit script from `a` to `b`: common ends first, then a longest common subsequence of the middle. */
function edits(a: readonly string[], b: readonly string[]): Edit[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const out: Edit[] = [];
  for (let i = 0; i < start; i++) out.push({ op: ' ', text: a[i]!, a: i + 1, b: i + 1 });
  const n = endA - start;
  const m = endB - start;
  if (n * m > MAX_CELLS) {
    for (let i = start; i < endA; i++) out.push({ op: '-', text: a[i]!, a: i + 1, b: endB });
    for (let j = start; j < endB; j++) out.push({ op: '+', text: b[j]!, a: endA, b: j + 1 });
  } else {
    // lcs[i][j]: the longest common subsequence of a[start+i..endA) and b[start+j..endB).
    const width = m + 1;
    const lcs = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * width + j] =
          a[start + i] === b[start + j]
            ? lcs[(i + 1) * width + j + 1]! + 1
            : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[start + i] === b[start + j]) {
        out.push({ op: ' ', text: a[start + i]!, a: start + i + 1, b: start + j + 1 });
        i++;
        j++;
      } else if (i < n && (j >= m || lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) {
        // Removed lines before added ones, as diff -u writes a changed block.
        out.push({ op: '-', text: a[start + i]!, a: start + i + 1, b: start + j });
        i++;
      } else {
        out.push({ op: '+', text: b[start + j]!, a: start + i, b: start + j + 1 });
        j++;
      }
    }
  }
  for (let i = endA, j = endB; i < a.length; i++, j++) out.push({ op: ' ', text: a[i]!, a: i + 1, b: j + 1 });
  return out;
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${count === 0 ? start : start},${count}`;
}

/**
 * A unified diff of two texts by lines (`---`/`+++` headers, `@@` hunks with `context` lines around
 * each change); empty when they are the same.
 */
export function unifiedDiff(before: string, after: string, labels: [string, string], context = 3): string {
  const script = edits(splitLines(before), splitLines(after));
  const changed = script.map((e, i) => (e.op === ' ' ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return '';
  const hunks: [number, number][] = [];
  for (const i of changed) {
    const from = Math.max(0, i - context);
    const to = Math.min(script.length - 1, i + context);
    const last = hunks[hunks.length - 1];
    if (last && from <= last[1] + 1) last[1] = to;
    else hunks.push([from, to]);
  }
  const out = [`--- ${labels[0]}`, `+++ ${labels[1]}`];
  for (const [from, to] of hunks) {
    const part = script.slice(from, to + 1);
    const oldCount = part.filter((e) => e.op !== '+').length;
    const newCount = part.filter((e) => e.op !== '-').length;
    const first = part[0]!;
    // A side with no lines in the hunk names the line before it (0 at the top), as diff -u does.
    const oldStart = oldCount === 0 ? first.a : (part.find((e) => e.op !== '+')?.a ?? first.a);
    const newStart = newCount === 0 ? first.b : (part.find((e) => e.op !== '-')?.b ?? first.b);
    out.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`);
    for (const e of part) out.push(`${e.op}${e.text}`);
  }
  return `${out.join('\n')}\n`;
}
