import {
  assetCriticalities,
  assetCsvColumns,
  assetKinds,
  ipAddressSchema,
  macAddressSchema,
  MAX_ASSET_ADDRESSES,
  type AssetCriticality,
  type AssetImportRejection,
  type AssetKind,
} from '@vigil/contract';
import { parseCsv, splitTags } from '../indicators/indicator-csv';

/** Most rows one import takes. */
export const MAX_ASSET_IMPORT_ROWS = 100_000;

/** One asset of an import file; fields left empty in the file are absent. */
export interface AssetImportRow {
  name: string;
  kind?: AssetKind;
  os_name?: string;
  os_version?: string;
  ips?: string[];
  macs?: string[];
  fqdn?: string;
  criticality?: AssetCriticality;
  tags?: string[];
  agent_id?: string;
  notes?: string;
}

const kindSet = new Set<string>(assetKinds);
const criticalitySet = new Set<string>(assetCriticalities);
/** A spreadsheet export guards formula-like cells with a leading `'`: taken off. */
const FORMULA_START = /^'[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

const limits: Partial<Record<(typeof assetCsvColumns)[number], number>> = {
  name: 255,
  os_name: 200,
  os_version: 100,
  fqdn: 255,
  agent_id: 200,
  notes: 10_000,
};

/**
 * Reads an asset import file: a header naming columns (name required, the others of
 * `name,kind,os_name,os_version,ips,macs,fqdn,criticality,tags,agent_id,notes` optional, in any
 * order), then one asset per row; lists (ips, macs, tags) are separated by `;` or `|`. Bad rows are
 * answered `{row, field, reason}` and left out; a later row of the same name replaces an earlier one.
 */
export function readAssetCsv(text: string): { rows: AssetImportRow[]; rejected: AssetImportRejection[] } {
  const { records, errors } = parseCsv(text);
  const header = records[0];
  if (!header)
    return { rows: [], rejected: [{ row: 1, field: 'header', reason: errors[0]?.reason ?? 'The file is empty.' }] };
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const known = new Set<string>(assetCsvColumns);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0 || !names.includes('name')) {
    const shown = unknown.slice(0, 5).map((n) => JSON.stringify(n.length > 40 ? `${n.slice(0, 40)}…` : n));
    const reason = [
      unknown.length > 0 ? `Unknown column ${shown.join(', ')}${unknown.length > 5 ? ' and more' : ''}.` : '',
      names.includes('name') ? '' : 'Missing column name.',
      `The header is ${assetCsvColumns.join(',')} (name required).`,
    ]
      .filter(Boolean)
      .join(' ');
    return { rows: [], rejected: [{ row: header.line, field: 'header', reason }] };
  }
  if (records.length - 1 > MAX_ASSET_IMPORT_ROWS) {
    const reason = `At most ${MAX_ASSET_IMPORT_ROWS} rows per import; split the file.`;
    return { rows: [], rejected: [{ row: 1, field: 'file', reason }] };
  }
  const rejected: AssetImportRejection[] = [];
  const byName = new Map<string, AssetImportRow>();
  for (let r = 1; r < records.length; r += 1) {
    const { line, fields } = records[r]!;
    const fail = (field: string, reason: string) => rejected.push({ row: line, field, reason });
    if (fields.length > names.length) {
      fail('row', `The row has ${fields.length} fields; the header names ${names.length}.`);
      continue;
    }
    if (fields.some((f) => f.includes('\u0000') || /\p{Cs}/u.test(f))) {
      fail('row', 'The row holds a NUL character or a broken character; a CSV file is text.');
      continue;
    }
    const get = (name: string) => {
      const index = names.indexOf(name);
      const value = index < 0 ? '' : (fields[index] ?? '').trim();
      return FORMULA_START.test(value) ? value.slice(1).trim() : value;
    };
    const row: AssetImportRow = { name: get('name') };
    let bad = false;
    for (const [column, max] of Object.entries(limits)) {
      const value = get(column);
      if (value.length > max) {
        fail(column, `At most ${max} characters.`);
        bad = true;
        break;
      }
    }
    if (bad) continue;
    if (row.name === '') {
      fail('name', 'Give a name.');
      continue;
    }
    const kind = get('kind').toLowerCase();
    if (kind !== '' && !kindSet.has(kind)) {
      fail('kind', `The kind is one of ${assetKinds.join(', ')}.`);
      continue;
    }
    const criticality = get('criticality').toLowerCase();
    if (criticality !== '' && !criticalitySet.has(criticality)) {
      fail('criticality', `The criticality is one of ${assetCriticalities.join(', ')}.`);
      continue;
    }
    const ips = splitTags(get('ips')).map((ip) => ip.toLowerCase());
    const badIp = ips.find((ip) => !ipAddressSchema.safeParse(ip).success);
    if (badIp !== undefined || ips.length > MAX_ASSET_ADDRESSES) {
      fail(
        'ips',
        badIp !== undefined
          ? `"${badIp.slice(0, 60)}" is not an IP address.`
          : `At most ${MAX_ASSET_ADDRESSES} addresses.`,
      );
      continue;
    }
    const macs: string[] = [];
    for (const text of splitTags(get('macs'))) {
      const mac = macAddressSchema.safeParse(text);
      if (!mac.success) break;
      macs.push(mac.data);
    }
    if (macs.length !== splitTags(get('macs')).length || macs.length > MAX_ASSET_ADDRESSES) {
      fail('macs', 'A MAC address is six hex pairs, e.g. 00:1a:2b:3c:4d:5e; at most 64.');
      continue;
    }
    const tags = splitTags(get('tags'));
    if (tags.length > 50 || tags.some((t) => t.length > 100)) {
      fail('tags', 'At most 50 tags of at most 100 characters each.');
      continue;
    }
    if (kind !== '') row.kind = kind as AssetKind;
    if (criticality !== '') row.criticality = criticality as AssetCriticality;
    if (ips.length > 0) row.ips = ips;
    if (macs.length > 0) row.macs = macs;
    if (tags.length > 0) row.tags = tags;
    for (const column of ['os_name', 'os_version', 'fqdn', 'agent_id', 'notes'] as const) {
      const value = get(column);
      if (value !== '') row[column] = value;
    }
    byName.set(row.name.toLowerCase(), row);
  }
  for (const error of errors) rejected.push({ row: error.line, field: 'row', reason: error.reason });
  return { rows: [...byName.values()], rejected };
}
