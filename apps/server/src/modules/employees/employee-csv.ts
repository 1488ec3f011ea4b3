import type { EmployeeImportRejection } from '@vigil/contract';
import { parse } from 'csv-parse';
import { csvRecordOptions, importedCell, numberRecords, type CsvRecord } from '../../csv-records';
import { normaliseAccount } from './employee-accounts';

/** Most rows one import takes. */
export const MAX_EMPLOYEE_IMPORT_ROWS = 100_000;
/** Characters of CSV text handed to the parser at a time, with a turn of the event loop between. */
const PARSE_SLICE = 256 * 1024;
/** Rows checked between turns of the event loop. */
const CHECK_SLICE = 5000;

/** One good row of an employee import, normalised. */
export interface EmployeeImportRow {
  /** The line of the file the row starts on. */
  line: number;
  full_name: string;
  emails: string[];
  accounts: string[];
  department: string;
  title: string;
  phone: string;
  /** As written: a distinguished name (`CN=Jane Doe,OU=…`), a full name, an address or an account. */
  manager: string;
  /** A unit of the company, by name. */
  unit: string;
  distinguished_name: string | null;
}

/**
 * Header names, in any letter case, and the field each fills. An Active Directory export
 * (`Get-ADUser -Properties * | Export-Csv`) brings its own names; where several fill one field, the
 * first non-empty one in this order wins (DisplayName over Name, telephoneNumber over mobile).
 */
const HEADER_FIELDS: Record<string, { field: keyof typeof FIELD_ORDER; rank: number }> = {};
const FIELD_ORDER = {
  full_name: ['full_name', 'fullname', 'displayname', 'display_name', 'name', 'cn'],
  given_name: ['givenname', 'given_name', 'first_name'],
  surname: ['surname', 'sn', 'last_name'],
  emails: ['emails', 'email', 'emailaddress', 'mail', 'proxyaddresses'],
  accounts: ['accounts', 'account', 'samaccountname', 'userprincipalname'],
  department: ['department'],
  title: ['title', 'jobtitle'],
  phone: ['phone', 'telephonenumber', 'officephone', 'mobile', 'mobilephone'],
  manager: ['manager'],
  unit: ['unit'],
  distinguished_name: ['distinguished_name', 'distinguishedname', 'dn'],
} as const;
for (const [field, names] of Object.entries(FIELD_ORDER)) {
  names.forEach((name, rank) => {
    HEADER_FIELDS[name] = { field: field as keyof typeof FIELD_ORDER, rank };
  });
}

/** Fields that gather every column of theirs (addresses and accounts), rather than the first. */
const GATHERED = new Set(['emails', 'accounts']);

const EMAIL = /^[^\s@<>(),;:"[\]\\]{1,64}@[^\s@<>(),;:"[\]\\]{1,253}\.[^\s@<>(),;:"[\]\\.]{2,63}$/;
const ACCOUNT = /^[^\s,;]{1,256}$/;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * RFC 4180 records, read in slices with a turn of the event loop between them, so that a file of
 * 100,000 rows does not hold other requests up. Each record comes with the line it starts on; a
 * quoted field never closed ends the file with a reason.
 */
export async function readCsvRecords(
  text: string,
): Promise<{ records: CsvRecord[]; errors: { line: number; reason: string }[] }> {
  const parsed: string[][] = [];
  const errors: { line: number; reason: string }[] = [];
  const parser = parse(csvRecordOptions(errors));
  parser.on('data', (record: string[]) => parsed.push(record));
  const ended = new Promise<void>((resolve) => {
    parser.on('end', () => resolve());
    parser.on('error', (error: unknown) => {
      errors.push({ line: 0, reason: error instanceof Error ? 'The file could not be read as CSV.' : String(error) });
      resolve();
    });
  });
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + PARSE_SLICE);
    // Never split a surrogate pair between two slices.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    parser.write(text.slice(start, end));
    start = end;
    await turn();
  }
  parser.end();
  await ended;
  return { records: numberRecords(parsed, errors), errors };
}

/** A field as written: trimmed, and the `'` an export puts before a formula-like value taken off. */
const cell = importedCell;

/** A list cell: values separated by `;`, `,`, `|` or spaces (PowerShell writes a collection spaced). */
function items(value: string): string[] {
  return value.split(/[;,|\s]+/).filter((v) => v !== '');
}

/** E-mail addresses of a cell: ProxyAddresses' `SMTP:`/`smtp:` entries, other protocols (X500:, SIP:) left out. */
function emailsOf(value: string): string[] {
  const out: string[] = [];
  for (const item of items(value.replace(/^\{|\}$/g, ''))) {
    const colon = item.indexOf(':');
    const protocol = colon > 0 && !item.slice(0, colon).includes('@') ? item.slice(0, colon).toLowerCase() : null;
    if (protocol !== null && protocol !== 'smtp') continue;
    out.push((protocol === null ? item : item.slice(colon + 1)).toLowerCase());
  }
  return out;
}

const quote = (name: string) => JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);

/**
 * Reads an employee import: a header row, then one employee per row. Header names are matched in
 * any letter case; columns of an Active Directory export are read as their fields, other columns
 * are passed over. A `#TYPE …` line before the header (Export-Csv without -NoTypeInformation) is
 * skipped. Bad rows come back as `{row, field, reason}` and are left out; a later row holding an
 * account or address of an earlier one replaces it.
 */
export async function readEmployeeCsv(
  text: string,
): Promise<{ rows: EmployeeImportRow[]; rejected: EmployeeImportRejection[] }> {
  const { records, errors } = await readCsvRecords(text);
  const rejected: EmployeeImportRejection[] = [];
  let start = 0;
  if (records[0]?.fields[0]?.trim().toUpperCase().startsWith('#TYPE')) start = 1;
  const header = records[start];
  if (!header) {
    return { rows: [], rejected: [{ row: 1, field: 'header', reason: errors[0]?.reason ?? 'The file is empty.' }] };
  }
  if (header.fields.some((f) => f.includes('\u0000'))) {
    return {
      rows: [],
      rejected: [
        { row: header.line, field: 'header', reason: 'The header holds a NUL character; a CSV file is text.' },
      ],
    };
  }
  // Column index per field: every column of a gathered field, else the best-ranked one.
  const columns = new Map<string, number[]>();
  const ranks = new Map<string, number>();
  header.fields.forEach((raw, index) => {
    const known = HEADER_FIELDS[raw.trim().toLowerCase().replace(/^"|"$/g, '')];
    if (!known) return;
    const { field, rank } = known;
    if (GATHERED.has(field)) columns.set(field, [...(columns.get(field) ?? []), index]);
    else if (!ranks.has(field) || rank < ranks.get(field)!) {
      ranks.set(field, rank);
      // Every column of the field, best first: an empty best cell falls back to the next.
      columns.set(field, [index, ...(columns.get(field) ?? [])]);
    } else columns.set(field, [...(columns.get(field) ?? []), index]);
  });
  const hasName = columns.has('full_name') || (columns.has('given_name') && columns.has('surname'));
  if (!hasName) {
    const names = header.fields.slice(0, 5).map(quote).join(', ');
    return {
      rows: [],
      rejected: [
        {
          row: header.line,
          field: 'header',
          reason:
            `No column names the employee (found ${names || 'none'}). Use full_name, emails, accounts, department, ` +
            'title, manager, phone, unit, distinguished_name, or an Active Directory export (Name, DisplayName, ' +
            'SamAccountName, UserPrincipalName, EmailAddress, Department, Title, Manager, telephoneNumber).',
        },
      ],
    };
  }
  const bodyRows = records.length - start - 1;
  if (bodyRows > MAX_EMPLOYEE_IMPORT_ROWS) {
    return {
      rows: [],
      rejected: [
        {
          row: 1,
          field: 'file',
          reason: `The file has ${bodyRows.toLocaleString('en-US')} rows; at most ${MAX_EMPLOYEE_IMPORT_ROWS.toLocaleString('en-US')} per import: split the file.`,
        },
      ],
    };
  }
  const width = header.fields.length;
  const rows: EmployeeImportRow[] = [];
  // Index of the kept row holding each account and address, so a later row replaces an earlier one.
  const holder = new Map<string, number>();
  for (let r = start + 1; r < records.length; r += 1) {
    if ((r - start) % CHECK_SLICE === 0) await turn();
    const { line, fields } = records[r]!;
    const fail = (field: string, reason: string) => rejected.push({ row: line, field, reason });
    if (fields.length > width) {
      fail('row', `The row has ${fields.length} fields; the header names ${width}.`);
      continue;
    }
    if (fields.some((f) => f.includes('\u0000'))) {
      fail('row', 'The row holds a NUL character; a CSV file is text.');
      continue;
    }
    const first = (field: string): string => {
      for (const index of columns.get(field) ?? []) {
        const value = cell(fields[index]);
        if (value !== '') return value;
      }
      return '';
    };
    const all = (field: string): string[] => (columns.get(field) ?? []).map((index) => cell(fields[index]));
    const fullName = first('full_name') || `${first('given_name')} ${first('surname')}`.trim();
    if (fullName === '') {
      fail('full_name', 'Give the employee’s name.');
      continue;
    }
    if (fullName.length > 200) {
      fail('full_name', 'A full name has at most 200 characters.');
      continue;
    }
    const emails = [...new Set(all('emails').flatMap(emailsOf))];
    const badEmail = emails.find((e) => e.length > 254 || !EMAIL.test(e));
    if (badEmail !== undefined) {
      fail('emails', `${quote(badEmail)} is not an e-mail address.`);
      continue;
    }
    const accounts = [...new Set(all('accounts').flatMap(items).map(normaliseAccount))];
    const badAccount = accounts.find((a) => !ACCOUNT.test(a));
    if (badAccount !== undefined) {
      fail('accounts', `${quote(badAccount)} is not an account name.`);
      continue;
    }
    if (emails.length > 50 || accounts.length > 50) {
      fail(emails.length > 50 ? 'emails' : 'accounts', 'At most 50 e-mail addresses and 50 accounts per employee.');
      continue;
    }
    const limits: [string, string, number][] = [
      ['department', first('department'), 200],
      ['title', first('title'), 200],
      ['phone', first('phone'), 50],
      ['manager', first('manager'), 1000],
      ['unit', first('unit'), 150],
      ['distinguished_name', first('distinguished_name'), 1000],
    ];
    const tooLong = limits.find(([, value, max]) => value.length > max);
    if (tooLong) {
      fail(tooLong[0], `At most ${tooLong[2]} characters.`);
      continue;
    }
    const [department, title, phone, manager, unit, dn] = limits.map(([, value]) => value) as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const row: EmployeeImportRow = {
      line,
      full_name: fullName,
      emails,
      accounts,
      department,
      title,
      phone,
      manager,
      unit,
      distinguished_name: dn === '' ? null : dn,
    };
    const keys = [...accounts.map((a) => `a:${a}`), ...emails.map((e) => `e:${e}`)];
    const earlier = keys.map((k) => holder.get(k)).find((i) => i !== undefined);
    const at = earlier ?? rows.length;
    if (earlier === undefined) rows.push(row);
    else rows[earlier] = row;
    for (const k of keys) holder.set(k, at);
  }
  for (const error of errors) rejected.push({ row: error.line, field: 'row', reason: error.reason });
  return { rows, rejected };
}

/** The common name of a distinguished name (`CN=Doe\, Jane,OU=Staff,…` → `Doe, Jane`), or null. */
export function commonName(dn: string): string | null {
  const match = /^\s*CN=((?:\\.|[^,\\])*)/i.exec(dn);
  if (!match) return null;
  return match[1]!.replace(/\\(.)/g, '$1').trim() || null;
}
