import {
  alertSeverityValues,
  indicatorCsvColumns,
  indicatorPolicies,
  indicatorTypes,
  type IndicatorImportRejection,
  type IndicatorPolicy,
  type IndicatorType,
} from '@vigil/contract';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { csvRecordOptions, importedCell, numberRecords } from '../../csv-records';
import type { AlertSeverity } from '../pipeline/detections';
import type { ImportRow, IndicatorRow } from './indicators.repository';
import { normaliseIndicatorValue } from './indicator-values';

/** Most rows one import takes. */
export const MAX_IMPORT_ROWS = 100_000;

/** csv-parse's records; a record it cannot read is skipped and noted in `errors` (line set later). */
function parseRecords(text: string, errors: { line: number; reason: string }[]): string[][] {
  return parse(text, csvRecordOptions(errors)) as string[][];
}

/**
 * RFC 4180 records (csv-parse): fields separated by commas, quoted with `"` (a doubled `""` inside
 * quotes is one quote; quoted fields may hold commas and line breaks), records ended by LF, CRLF
 * or CR, a UTF-8 BOM ignored, blank lines skipped. Stray quotes are kept as text, as written.
 * Answers each record with the line it starts on, and what could not be read (only a quoted field
 * never closed: the rest of the file is inside it) as `{line, reason}`.
 */
export function parseCsv(text: string): {
  records: { line: number; fields: string[] }[];
  errors: { line: number; reason: string }[];
} {
  const records: { line: number; fields: string[] }[] = [];
  const errors: { line: number; reason: string }[] = [];
  let parsed: string[][];
  try {
    parsed = parseRecords(text, errors);
  } catch {
    // parseRecords reports problems per record; should the parser throw all the same, the file is refused.
    return { records: [], errors: [{ line: 1, reason: 'The file could not be read as CSV.' }] };
  }
  records.push(...numberRecords(parsed, errors));
  return { records, errors };
}

/** A field as written: trimmed, and the `'` the export puts before a formula-like value taken off. */
const fieldValue = importedCell;

const typeSet = new Set<string>(indicatorTypes);
const policySet = new Set<string>(indicatorPolicies);
const severitySet = new Set<string>(alertSeverityValues);
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Splits tags written `a;b` (a `|` also separates). */
export function splitTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[;|]/)
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    ),
  ];
}

/** Column names for a message: quoted, at most five of 40 characters each (the header may be any bytes). */
function quoteNames(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((n) => JSON.stringify(n.length > 40 ? `${n.slice(0, 40)}…` : n));
  return names.length > 5 ? `${shown.join(', ')} and ${names.length - 5} more` : shown.join(', ');
}

/**
 * Reads an import file: a header row naming columns (type and value required, the others of
 * `type,value,policy,severity,expires_at,tags,source,description` optional, in any order), then
 * one indicator per row. Bad rows are answered `{row, field, reason}` and left out; good rows are
 * normalised, and a later row for the same type and value replaces an earlier one.
 */
export function readIndicatorCsv(text: string): { rows: ImportRow[]; rejected: IndicatorImportRejection[] } {
  const { records, errors } = parseCsv(text);
  const rejected: IndicatorImportRejection[] = [];
  const header = records[0];
  if (!header) {
    const reason = errors[0]?.reason ?? 'The file is empty.';
    return { rows: [], rejected: [{ row: 1, field: 'header', reason }] };
  }
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const known = new Set<string>(indicatorCsvColumns);
  const unknown = names.filter((n) => !known.has(n));
  const missing = ['type', 'value'].filter((n) => !names.includes(n));
  if (unknown.length > 0 || missing.length > 0) {
    const reason = [
      unknown.length > 0 ? `Unknown column ${quoteNames(unknown)}.` : '',
      missing.length > 0 ? `Missing column ${missing.join(', ')}.` : '',
      `The header is ${indicatorCsvColumns.join(',')} (type and value required).`,
    ]
      .filter(Boolean)
      .join(' ');
    return { rows: [], rejected: [{ row: header.line, field: 'header', reason }] };
  }
  if (records.length - 1 > MAX_IMPORT_ROWS) {
    return {
      rows: [],
      rejected: [{ row: 1, field: 'file', reason: `At most ${MAX_IMPORT_ROWS} rows per import; split the file.` }],
    };
  }
  const at = (name: string) => names.indexOf(name);
  const col = {
    type: at('type'),
    value: at('value'),
    policy: at('policy'),
    severity: at('severity'),
    expires_at: at('expires_at'),
    tags: at('tags'),
    source: at('source'),
    description: at('description'),
  };
  const byKey = new Map<string, ImportRow>();
  for (let r = 1; r < records.length; r += 1) {
    const { line, fields } = records[r]!;
    const get = (index: number) => (index < 0 ? '' : fieldValue(fields[index]));
    const fail = (field: string, reason: string) => rejected.push({ row: line, field, reason });
    if (fields.length > names.length) {
      fail('row', `The row has ${fields.length} fields; the header names ${names.length}.`);
      continue;
    }
    if (fields.some((f) => f.includes('\u0000'))) {
      fail('row', 'The row holds a NUL character; a CSV file is text.');
      continue;
    }
    const type = get(col.type).toLowerCase();
    if (!typeSet.has(type)) {
      fail('type', type === '' ? 'Give a type.' : `The type is one of ${indicatorTypes.join(', ')}.`);
      continue;
    }
    const rawValue = get(col.value);
    if (rawValue === '') {
      fail('value', 'Give a value.');
      continue;
    }
    const normalised = rawValue.length > 2048 ? null : normaliseIndicatorValue(type as IndicatorType, rawValue);
    if (!normalised || !normalised.ok) {
      fail('value', normalised ? normalised.reason : 'A value has at most 2048 characters.');
      continue;
    }
    const policy = get(col.policy).toLowerCase() || 'alert';
    if (!policySet.has(policy)) {
      fail('policy', 'The policy is alert or ignore.');
      continue;
    }
    const severity = get(col.severity).toLowerCase() || 'medium';
    if (!severitySet.has(severity)) {
      fail('severity', `Severity is one of ${alertSeverityValues.join(', ')}.`);
      continue;
    }
    const expiresText = get(col.expires_at);
    let expiresAt: string | null = null;
    if (expiresText !== '') {
      const ms = DATE_TIME.test(expiresText) ? Date.parse(expiresText.replace(' ', 'T')) : Number.NaN;
      if (Number.isNaN(ms)) {
        fail('expires_at', 'Give an ISO 8601 date or date and time, e.g. 2026-12-31T00:00:00Z.');
        continue;
      }
      expiresAt = new Date(ms).toISOString();
    }
    const tags = splitTags(get(col.tags));
    if (tags.length > 50 || tags.some((t) => t.length > 100)) {
      fail('tags', 'At most 50 tags of at most 100 characters each.');
      continue;
    }
    const source = get(col.source);
    if (source.length > 200) {
      fail('source', 'A source has at most 200 characters.');
      continue;
    }
    const description = get(col.description);
    if (description.length > 4000) {
      fail('description', 'A description has at most 4000 characters.');
      continue;
    }
    byKey.set(`${type}\u0000${normalised.value}`, {
      type: type as IndicatorType,
      value: normalised.value,
      policy: policy as IndicatorPolicy,
      severity: severity as AlertSeverity,
      expires_at: expiresAt,
      tags,
      source,
      description,
    });
  }
  for (const error of errors) rejected.push({ row: error.line, field: 'row', reason: error.reason });
  return { rows: [...byKey.values()], rejected };
}

/**
 * The export: the import's header and one row per indicator, so an export imports back as is.
 * A cell a spreadsheet would read as a formula (starting with = + - @, tab or CR, or their
 * full-width forms) gets a leading `'`; the import takes that `'` off again. No column is numeric
 * (values, dates and tags are all text), so no cell is exempt.
 */
export function writeIndicatorCsv(rows: readonly IndicatorRow[]): string {
  const records: string[][] = [[...indicatorCsvColumns]];
  for (const r of rows) {
    records.push([
      r.type,
      r.value,
      r.policy,
      r.severity,
      r.expires_at ? r.expires_at.toISOString() : '',
      r.tags.join(';'),
      r.source,
      r.description,
    ]);
  }
  return stringify(records, {
    record_delimiter: 'windows',
    // A field holding CR or LF is quoted (the import reads any of CRLF, LF and CR as a line end).
    quote_record_delimiter: true,
    escape_formulas: true,
  });
}
