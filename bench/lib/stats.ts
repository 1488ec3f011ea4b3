import { performance } from 'node:perf_hooks';

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  mean: number;
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.length === 0 ? Number.NaN : sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), mean };
}

/** Set by SIGINT/SIGTERM: every loop stops at its next step, and the run cleans up. */
export const interruption = { requested: false };

/**
 * Runs `step` up to `count` times or until `seconds` have passed (or an interruption), whichever
 * comes first, and returns how long each step took: the milliseconds `step` returns, or the time
 * around it when it returns nothing. A step returning `false` ends the loop without a sample.
 */
export async function bounded(
  count: number,
  seconds: number,
  step: (index: number) => Promise<number | void | false>,
): Promise<number[]> {
  const deadline = performance.now() + seconds * 1000;
  const samples: number[] = [];
  for (let i = 0; i < count; i += 1) {
    if (interruption.requested || performance.now() > deadline) break;
    const started = performance.now();
    const measured = await step(i);
    if (measured === false) break;
    samples.push(typeof measured === 'number' ? measured : performance.now() - started);
  }
  return samples;
}

/** Milliseconds `work` takes. */
export async function time(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '-');
const ratio = (api: number, raw: number) =>
  raw > 0 && Number.isFinite(api / raw) ? `${(api / raw).toFixed(2)}x` : '-';

export interface Row {
  name: string;
  api: Summary;
  raw: Summary;
}

/** A fixed-width table: API and raw latencies side by side, and their ratio. */
export function table(rows: readonly Row[]): string {
  const header = [
    'case',
    'n',
    'API p50',
    'API p95',
    'API mean',
    'raw p50',
    'raw p95',
    'raw mean',
    'API/raw p50',
    'API/raw p95',
  ];
  const body = rows.map((row) => [
    row.name,
    row.api.n === row.raw.n || row.raw.n === 0 ? String(row.api.n) : `${row.api.n}/${row.raw.n}`,
    ms(row.api.p50),
    ms(row.api.p95),
    ms(row.api.mean),
    ms(row.raw.p50),
    ms(row.raw.p95),
    ms(row.raw.mean),
    ratio(row.api.p50, row.raw.p50),
    ratio(row.api.p95, row.raw.p95),
  ]);
  return grid(header, body);
}

/** Left-aligned first column, right-aligned others. */
export function grid(header: readonly string[], body: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((cells) => (cells[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...body.map(line)].join('\n');
}

export { ms as formatMs };
