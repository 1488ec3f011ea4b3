import { freeTextFields, searchFields, type SearchFieldType, type SearchKind } from '@vigil/contract/query';

/**
 * The query-language help of the search page: its sections, each a text in the dictionary
 * (`search.help.sections.<id>`) whose `{{name}}` placeholders are the bits of query shown as code
 * (the same in every language), and example queries a click puts into the query box.
 */
export interface HelpSection {
  id: HelpSectionId;
  /** What each placeholder of the section's text shows, as code. */
  codes: Readonly<Record<string, string>>;
  examples: readonly string[];
}

export const helpSectionIds = [
  'fieldValue',
  'phrases',
  'wildcards',
  'comparisons',
  'ranges',
  'cidr',
  'fieldGroup',
  'logic',
  'precedence',
  'exists',
  'freeText',
  'times',
  'escapes',
] as const;
export type HelpSectionId = (typeof helpSectionIds)[number];

export const helpSections: readonly HelpSection[] = [
  {
    id: 'fieldValue',
    codes: { example: 'host_name: WS-FIN-07' },
    examples: ['host_name: WS-FIN-07', 'process_name: POWERSHELL.EXE', 'command_line: encodedcommand'],
  },
  {
    id: 'phrases',
    codes: { example: 'command_line: "-enc SQBFAFgA"' },
    examples: ['command_line: "-enc SQBFAFgA"', 'subject: "invoice overdue"', '"lateral movement"'],
  },
  {
    id: 'wildcards',
    codes: { star: '*', question: '?' },
    examples: ['dns_rrname: *.example.ru', 'process_name: ps?xec*', 'user_name: adm*'],
  },
  {
    id: 'comparisons',
    codes: { gt: '>', ge: '>=', lt: '<', le: '<=', example: 'dest_port >= 1024' },
    examples: ['dest_port >= 1024', 'score > 70', 'ts < 2026-11-29T10:00:00Z'],
  },
  {
    id: 'ranges',
    codes: { example: 'dest_port: [1024 to 2048]', star: '*' },
    examples: ['dest_port: [1 to 1023]', 'dest_port: [1024 to *]', 'src_ip: [10.0.0.1 to 10.0.0.99]'],
  },
  {
    id: 'cidr',
    codes: { example: 'dest_ip: 10.0.0.0/8', ip: 'ip' },
    examples: ['dest_ip: 10.0.0.0/8', 'src_ip: 2001:db8::/32', 'ip: 192.168.0.0/16'],
  },
  {
    id: 'fieldGroup',
    codes: { and: 'and', or: 'or', not: 'not', example: 'dest_port: (80 or 443)' },
    examples: ['dest_port: (80 or 443)', 'severity: (high or critical)', 'user_name: (adm* and not admin)'],
  },
  {
    id: 'logic',
    codes: { and: 'and', or: 'or', not: 'not', quoted: '"or"' },
    examples: [
      'process_name: cmd.exe and user_name: SYSTEM',
      'event_type: dns or event_type: tls',
      'not proto: UDP',
      'process_name: cmd.exe user_name: SYSTEM',
    ],
  },
  {
    id: 'precedence',
    codes: { and: 'and', or: 'or', not: 'not', plain: 'a or b and c', grouped: 'a or (b and c)' },
    examples: ['(proto: UDP or dest_port: 53) and src_ip: 10.0.0.0/8', 'not (dest_port: 80 or dest_port: 443)'],
  },
  {
    id: 'exists',
    codes: { example: 'user_name: *', not: 'not' },
    examples: ['file_sha256: *', 'not user_name: *'],
  },
  {
    id: 'freeText',
    codes: {},
    examples: ['mimikatz', '"sekurlsa::logonpasswords"', 'powershell -enc'],
  },
  {
    id: 'times',
    codes: { absolute: '2026-11-29T10:00:00Z', relative: 'now-15m', units: 's m h d w', now: 'now' },
    examples: ['ts >= now-15m', 'ts: [now-7d to now-1d]', 'ts >= 2026-11-29T13:00:00+03:00'],
  },
  {
    id: 'escapes',
    codes: { backslash: '\\\\', quote: '\\"', star: '\\*', colon: '\\:' },
    examples: [
      'file_path: "C:\\\\Windows\\\\Temp\\\\evil.exe"',
      'file_path: C:\\\\Users\\\\*\\\\AppData\\\\*',
      'subject: why\\?',
    ],
  },
];

/** A field as the help lists it: its name, type, whether it holds several values, whether free text reads it. */
export interface HelpField {
  name: string;
  type: SearchFieldType;
  many: boolean;
  freeText: boolean;
}

/** Every field of a kind, in the catalogue's order, from the contract's catalogue. */
export function helpFields(kind: SearchKind): HelpField[] {
  const freeText: readonly string[] = freeTextFields[kind];
  return Object.entries(searchFields[kind]).map(
    ([name, field]: [string, { type: SearchFieldType; many?: boolean }]) => ({
      name,
      type: field.type,
      many: field.many === true,
      freeText: freeText.includes(name),
    }),
  );
}

/** The placeholders of a text: `{{name}}` → `name`. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]!);
}

/** A text cut at its placeholders: plain parts, and the names of those between them. */
export function splitPlaceholders(text: string): ({ text: string } | { code: string })[] {
  return text
    .split(/(\{\{\s*\w+\s*\}\})/)
    .filter((part) => part !== '')
    .map((part) => {
      const name = /^\{\{\s*(\w+)\s*\}\}$/.exec(part)?.[1];
      return name === undefined ? { text: part } : { code: name };
    });
}
