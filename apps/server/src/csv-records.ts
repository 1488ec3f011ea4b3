import type { Options } from 'csv-parse';

/*
 * How CSV imports read their files (csv-parse): RFC 4180 records, fields separated by commas and
 * quoted with `"`, records ended by LF, CRLF or CR, a UTF-8 BOM ignored, stray quotes kept as
 * written. Blank lines come back as one empty field so that lines are counted exactly; a record
 * that cannot be read is noted in `errors` (its line set by `numberRecords`).
 */

export interface CsvRecord {
  /** The line of the file the record starts on. */
  line: number;
  fields: string[];
}

/** The parser's options; what it cannot read is pushed to `errors`. */
export function csvRecordOptions(errors: { line: number; reason: string }[]): Options {
  return {
    bom: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
    skip_records_with_error: true,
    on_skip: (error) => {
      errors.push({
        line: 0,
        reason:
          error?.code === 'CSV_QUOTE_NOT_CLOSED'
            ? 'A quoted field starting on or after this row is never closed; the rest of the file was not read.'
            : 'The row could not be read as CSV.',
      });
      return undefined;
    },
  };
}

/** Line breaks in a text: CRLF, LF and CR each end one line. */
function lineBreaks(text: string): number {
  let breaks = 0;
  for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) breaks += 1;
  for (let k = text.indexOf('\r'); k >= 0; k = text.indexOf('\r', k + 1)) {
    if (text.charCodeAt(k + 1) !== 10) breaks += 1;
  }
  return breaks;
}

/**
 * The parsed records with the line each starts on, blank lines left out; the errors the parser
 * noted get the line it stopped on (a record that could not be read is the last: the parser stops in it).
 */
export function numberRecords(parsed: readonly string[][], errors: { line: number; reason: string }[]): CsvRecord[] {
  const records: CsvRecord[] = [];
  let line = 1;
  for (const fields of parsed) {
    if (fields.length > 1 || fields[0] !== '') records.push({ line, fields });
    line += 1;
    for (const field of fields) {
      if (field.includes('\n') || field.includes('\r')) line += lineBreaks(field);
    }
  }
  for (const error of errors) error.line = line;
  return records;
}

/** Characters a spreadsheet reads as the start of a formula (OWASP CSV injection), ASCII and full-width. */
export const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']);

/** A field as written: trimmed, and the `'` an export puts before a formula-like value taken off. */
export function importedCell(raw: string | undefined): string {
  const value = (raw ?? '').trim();
  return value.charCodeAt(0) === 39 && FORMULA_START.has(value.charAt(1)) ? value.slice(1).trim() : value;
}
