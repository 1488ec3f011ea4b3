import {
  alertSeverityValues,
  indicatorCsvColumns,
  indicatorPolicies,
  indicatorTypes,
  type IndicatorImportRejection,
  type IndicatorPolicy,
  type IndicatorType,
} from '@vigil/contract';
import type { AlertSeverity } from '../pipeline/detections';
import type { ImportRow, IndicatorRow } from './indicators.repository';
import { normaliseIndicatorValue } from './indicator-values';

/** Most rows one import takes. */
export const MAX_IMPORT_ROWS = 100_000;

/**
 * RFC 4180 records: fields separated by commas, quoted with `"` (a doubled `""` inside quotes is
 * one quote; quoted fields may hold commas and line breaks), records ended by LF or CRLF.
 * Answers each record with the line it starts on.
 */
export function parseCsv(text: string): { line: number; fields: string[] }[] {
  const records: { line: number; fields: string[] }[] = [];
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const n = s.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const start = line;
    const fields: string[] = [];
    // One record: fields until an unquoted line break or the end.
    for (;;) {
      if (s.charCodeAt(i) === 34) {
        // Quoted field: up to the closing quote; "" is a quote.
        let value = '';
        let from = i + 1;
        for (;;) {
          const quote = s.indexOf('"', from);
          if (quote < 0) {
            value += s.slice(from);
            i = n;
            break;
          }
          value += s.slice(from, quote);
          if (s.charCodeAt(quote + 1) === 34) {
            value += '"';
            from = quote + 2;
          } else {
            i = quote + 1;
            break;
          }
        }
        for (let k = value.indexOf('\n'); k >= 0; k = value.indexOf('\n', k + 1)) line += 1;
        // Anything between the closing quote and the separator belongs to the field as written.
        let j = i;
        while (j < n && s.charCodeAt(j) !== 44 && s.charCodeAt(j) !== 10 && s.charCodeAt(j) !== 13) j += 1;
        fields.push(value + s.slice(i, j));
        i = j;
      } else {
        let j = i;
        while (j < n) {
          const c = s.charCodeAt(j);
          if (c === 44 || c === 10 || c === 13) break;
          j += 1;
        }
        fields.push(s.slice(i, j));
        i = j;
      }
      if (i < n && s.charCodeAt(i) === 44) {
        i += 1;
        continue;
      }
      break;
    }
    if (i < n && s.charCodeAt(i) === 13) i += 1;
    if (i < n && s.charCodeAt(i) === 10) i += 1;
    line += 1;
    if (fields.length > 1 || fields[0] !== '') records.push({ line: start, fields });
  }
  return records;
}

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

/**
 * Reads an import file: a header row naming columns (type and value required, the others of
 * `type,value,policy,severity,expires_at,tags,source,description` optional, in any order), then
 * one indicator per row. Bad rows are answered `{row, field, reason}` and left out; good rows are
 * normalised, and a later row for the same type and value replaces an earlier one.
 */
export function readIndicatorCsv(text: string): { rows: ImportRow[]; rejected: IndicatorImportRejection[] } {
  const records = parseCsv(text);
  const rejected: IndicatorImportRejection[] = [];
  const header = records[0];
  if (!header) return { rows: [], rejected: [{ row: 1, field: 'header', reason: 'The file is empty.' }] };
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const known = new Set<string>(indicatorCsvColumns);
  const unknown = names.filter((n) => !known.has(n));
  const missing = ['type', 'value'].filter((n) => !names.includes(n));
  if (unknown.length > 0 || missing.length > 0) {
    const reason = [
      unknown.length > 0 ? `Unknown column ${unknown.map((u) => JSON.stringify(u)).join(', ')}.` : '',
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
    const get = (index: number) => (index < 0 ? '' : (fields[index] ?? '').trim());
    const fail = (field: string, reason: string) => rejected.push({ row: line, field, reason });
    if (fields.length > names.length) {
      fail('row', `The row has ${fields.length} fields; the header names ${names.length}.`);
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
  return { rows: [...byKey.values()], rejected };
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The export: the import's header and one row per indicator, so an export imports back as is. */
export function writeIndicatorCsv(rows: readonly IndicatorRow[]): string {
  const lines = [indicatorCsvColumns.join(',')];
  for (const r of rows) {
    lines.push(
      [
        r.type,
        r.value,
        r.policy,
        r.severity,
        r.expires_at ? r.expires_at.toISOString() : '',
        r.tags.join(';'),
        r.source,
        r.description,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
