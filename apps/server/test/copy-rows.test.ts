import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkInsert, type BulkColumn } from '../src/db/bulk';
import { copyEscape, copyJson, copyRows, copyValue, copyWritten, CopyWriter, JsonText } from '../src/db/copy';
import { migrate } from '../src/db/migrate';
import { parseEndpointLines, parseEveLines } from '../src/modules/ingest/parsers';
import {
  endpointColumns,
  endpointRow,
  networkColumns,
  networkRow,
  storeEndpointEvents,
  storeNetworkEvents,
} from '../src/modules/ingest/storage';
import { sql } from '../src/db/sql';
import { createTestDatabase, type TestDatabase } from './helpers/test-database';

let t: TestDatabase;

const columns: BulkColumn[] = [
  { name: 'n', type: 'int8' },
  { name: 'label', type: 'text' },
  { name: 'ok', type: 'bool' },
  { name: 'at', type: 'timestamptz' },
  { name: 'addr', type: 'inet' },
  { name: 'tags', type: 'text[]' },
  { name: 'doc', type: 'json' },
  { name: 'meta', type: 'jsonb' },
];

beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.exec(`CREATE TABLE copy_target (n int8, label text, ok bool, at timestamptz, addr inet,
    tags text[], doc json, meta jsonb)`);
}, 120_000);

afterAll(async () => {
  await t?.drop();
});

describe('COPY text encoding', () => {
  it('escapes backslash, line breaks and tabs, and turns NUL into U+FFFD', () => {
    expect(copyEscape('plain')).toBe('plain');
    expect(copyEscape('a\\b\tc\nd\re\0f')).toBe('a\\\\b\\tc\\nd\\re\uFFFDf');
  });

  it('escapes JSON text by searching for the few characters it can hold', () => {
    const json = JSON.stringify({ path: 'C:\\Users\\x', tab: 'a\tb', line: 'a\nb' });
    expect(copyJson(json)).toBe(copyEscape(json));
    expect(copyJson('{"a":\t1,\r"b": "\\\\"}')).toBe('{"a":\\t1,\\r"b": "\\\\\\\\"}');
    expect(copyJson('{"plain":true}')).toBe('{"plain":true}');
  });

  it('writes NULL as \\N and ready JSON text as it is', () => {
    expect(copyValue(null, 'text')).toBe('\\N');
    expect(copyValue(undefined, 'int8')).toBe('\\N');
    expect(copyValue(new JsonText('{"a": 1}'), 'json')).toBe('{"a": 1}');
    expect(copyValue({ path: 'C:\\x' }, 'json')).toBe('{"path":"C:\\\\\\\\x"}');
    expect(copyValue(['a"b', null], 'text[]')).toBe('{"a\\\\"b",NULL}');
  });
});

describe('copyRows', () => {
  const awkward = 'tab\there, line\nbreak, back\\slash, quote " and \'; unicode ✓ Ж, NUL\0end, \\N literally';
  const rows: unknown[][] = [
    [
      1,
      awkward,
      true,
      '2026-11-22T10:00:00.000Z',
      '10.0.0.1',
      ['x', 'with "quote"', 'back\\slash', null],
      { a: [1, 'two\nlines'] },
      { b: true },
    ],
    [
      2,
      null,
      false,
      new Date('2026-01-02T03:04:05.678Z'),
      '2001:db8::1',
      [],
      new JsonText('{"raw" : "kept\\tas sent", "big": 18446744073709551615}'),
      null,
    ],
    [3, '', null, null, null, null, null, { empty: '' }],
  ];

  it('stores every value as the unnest insert does, in a transaction', async () => {
    const copied = await t.db.transaction((tx) => copyRows(tx, 'copy_target', columns, rows));
    expect(copied).toBe(3);
    await t.db.transaction((tx) =>
      bulkInsert(
        tx,
        'copy_target',
        columns,
        rows.map((r) => [Number(r[0]) + 10, ...r.slice(1)]),
      ),
    );
    const { rows: stored } = await t.db.query<Record<string, unknown>>(
      sql`SELECT n, label, ok, at, host(addr) AS addr, tags, doc::text AS doc, meta FROM copy_target ORDER BY n`,
    );
    expect(stored).toHaveLength(6);
    const first = stored[0]!;
    expect(first.label).toBe(awkward.replace('\0', '\uFFFD'));
    expect(first.ok).toBe(true);
    expect(new Date(first.at as string).toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(first.addr).toBe('10.0.0.1');
    expect(first.tags).toEqual(['x', 'with "quote"', 'back\\slash', null]);
    expect(JSON.parse(first.doc as string)).toEqual({ a: [1, 'two\nlines'] });
    expect(first.meta).toEqual({ b: true });
    // The ready JSON text is kept byte for byte (spacing, digits beyond 2^53).
    expect(stored[1]!.doc).toBe('{"raw" : "kept\\tas sent", "big": 18446744073709551615}');
    expect(stored[1]!.label).toBeNull();
    expect(stored[1]!.tags).toEqual([]);
    expect(stored[2]!.label).toBe('');
    // Both ways in store the same values.
    for (let i = 0; i < 3; i++) {
      const { n: _a, ...copiedRow } = stored[i]!;
      const { n: _b, ...insertedRow } = stored[i + 3]!;
      expect(copiedRow).toEqual(insertedRow);
    }
  });

  it('stores nothing when one value is refused', async () => {
    const before = await t.db.query<{ count: number }>(sql`SELECT count(*)::int AS count FROM copy_target`);
    await expect(
      t.db.transaction((tx) =>
        copyRows(tx, 'copy_target', columns, [
          [100, 'fine', true, null, null, null, null, null],
          [101, 'bad address', true, null, 'not-an-ip', null, null, null],
        ]),
      ),
    ).rejects.toThrow();
    const after = await t.db.query<{ count: number }>(sql`SELECT count(*)::int AS count FROM copy_target`);
    expect(after.rows[0]!.count).toBe(before.rows[0]!.count);
    // The connection is usable afterwards.
    expect(
      await t.db.transaction((tx) =>
        copyRows(tx, 'copy_target', columns, [[102, 'after', true, null, null, null, null, null]]),
      ),
    ).toBe(1);
  });
});

describe('CopyWriter', () => {
  it('grows past its first buffer and stores every row it was given, multi-byte text included', async () => {
    const out = new CopyWriter(1024);
    for (let n = 200; n < 260; n++) {
      out.write(`${n}\t${copyEscape(`row ${n}: Ж ✓ ${'é'.repeat(40)}\tend`)}\tt\t\\N\t\\N\t\\N\t\\N\t\\N`);
      out.endRow();
    }
    expect(out.rows).toBe(60);
    expect(out.bytes().length).toBeGreaterThan(1024);
    expect(
      await t.db.transaction((tx) =>
        copyWritten(
          tx,
          'copy_target',
          columns.map((c) => c.name),
          out,
        ),
      ),
    ).toBe(60);
    const { rows } = await t.db.query<{ n: number; label: string }>(
      sql`SELECT n, label FROM copy_target WHERE n >= 200 ORDER BY n`,
    );
    expect(rows).toHaveLength(60);
    expect(rows[59]).toEqual({ n: 259, label: `row 259: Ж ✓ ${'é'.repeat(40)}\tend` });
  });
});

describe('ingest rows', () => {
  // Awkward but valid lines: backslashes, quotes, Unicode, a tab between tokens, 64-bit flow ids.
  const eve = [
    '{"timestamp":"2026-11-22T10:00:00.000001+0000","flow_id":18446744073709551615,"event_type":"alert","src_ip":"10.0.0.5","src_port":51000,"dest_ip":"2001:db8::1","dest_port":80,"proto":"TCP","app_proto":"http",\t"host":"sensor\\\\1","alert":{"action":"allowed","gid":1,"signature_id":2024001,"rev":2,"signature":"ET \\"quoted\\" Ж","category":"Bad","severity":1},"http":{"hostname":"ex.test","url":"/a\\\\b?q=\\u00e9","http_user_agent":"Mozilla\\t(x)"}}',
    '{"timestamp":"2026-11-22T10:00:01Z","event_type":"fileinfo","src_ip":"10.0.0.6","dest_ip":"10.0.0.7","fileinfo":{"filename":"a.exe","sha256":"' +
      'ab'.repeat(32) +
      '","size":10}}',
    // Application-layer groups with awkward envelope addresses (quotes, backslash, comma, brace).
    JSON.stringify({
      timestamp: '2026-11-22T10:00:01.5Z',
      event_type: 'smtp',
      src_ip: '10.0.0.9',
      dest_ip: '10.0.0.25',
      smtp: { helo: 'h', mail_from: '<a\\"b@x.test>', rcpt_to: ['<c,d@x.test>', '"{e}" <f@x.test>', 'g\th@x.test'] },
      tls: { serial: '0A:BC:de', sni: 'x.test' },
      ssh: { client: { software_version: 'libssh_0.9.6' }, server: { software_version: 'OpenSSH_9.6' } },
      dhcp: { client_mac: 'AA-BB-CC-DD-EE-FF', hostname: 'laptop\\7', assigned_ip: '10.0.0.77' },
      fileinfo: { filename: 'b.bin', stored: true },
    }),
  ].join('\n');
  const endpoint = [
    JSON.stringify({
      '@timestamp': '2026-11-22T10:00:02Z',
      host: { name: 'WS-1', ip: ['10.0.0.8'] },
      event: { action: 'process-create', code: '1' },
      process: {
        pid: 42,
        executable: 'C:\\Windows\\System32\\cmd.exe',
        command_line: 'cmd.exe /c "echo \\"hi\\"\tthere"',
        parent: { name: 'explorer.exe' },
        hash: { sha256: 'cd'.repeat(32) },
      },
      user: { name: 'Пользователь' },
      destination: { ip: '198.51.100.1', port: 443 },
    }),
    JSON.stringify({
      Event: {
        System: {
          EventID: 11,
          Provider: { Name: 'Microsoft-Windows-Sysmon' },
          Computer: 'WS-2',
          TimeCreated: { SystemTime: '2026-11-22T10:00:03Z' },
        },
        EventData: {
          Data: [
            { Name: 'TargetFilename', '#text': 'C:\\Temp\\x.dll' },
            { Name: 'Image', '#text': 'C:\\a b\\p.exe' },
          ],
        },
      },
    }),
  ].join('\n');

  beforeAll(async () => {
    await migrate(t.db);
  }, 120_000);

  /** Every column of the rows of a batch, id aside, with the JSON columns as stored text. */
  async function stored(table: string, batch: number) {
    const { rows } = await t.db.query<Record<string, unknown>>(
      sql`SELECT *, event::text AS event, raw::text AS raw FROM ${sql.ident(table)} WHERE batch_id = ${batch} ORDER BY id`,
    );
    return rows.map(({ id: _id, batch_id: _batch, ...rest }) => rest);
  }

  it('writes network and endpoint events by COPY exactly as the insert of their rows stores them', async () => {
    const network = parseEveLines(eve).flatMap((r) => (r.ok ? [r] : []));
    const hosts = parseEndpointLines(endpoint).flatMap((r) => (r.ok ? [r] : []));
    expect(network).toHaveLength(3);
    expect(hosts).toHaveLength(2);
    await t.db.transaction(async (tx) => {
      await storeNetworkEvents(
        tx,
        1,
        1,
        network.map((r) => r.event),
        [1, 2, 3],
        network.map((r) => r.text),
      );
      await bulkInsert(
        tx,
        'network_events',
        networkColumns,
        network.map((r, i) => networkRow(1, 2, 11 + i, r.event, r.text)),
      );
      await storeEndpointEvents(
        tx,
        1,
        1,
        hosts.map((r) => r.event),
        [1, 2],
        hosts.map((r) => r.text),
      );
      await bulkInsert(
        tx,
        'endpoint_events',
        endpointColumns,
        hosts.map((r, i) => endpointRow(1, 2, 11 + i, r.event, r.text)),
      );
    });
    for (const table of ['network_events', 'endpoint_events']) {
      const copied = await stored(table, 1);
      expect(copied).toHaveLength(table === 'network_events' ? 3 : 2);
      expect(copied).toEqual(await stored(table, 2));
    }
    const smtp = (await stored('network_events', 1))[2]!;
    expect(smtp).toMatchObject({
      smtp_mail_from: '<a\\"b@x.test>',
      smtp_rcpt_to: ['<c,d@x.test>', '"{e}" <f@x.test>', 'g\th@x.test'],
      tls_serial: '0abcde',
      ssh_client_software: 'libssh_0.9.6',
      ssh_server_software: 'OpenSSH_9.6',
      dhcp_mac: 'aa:bb:cc:dd:ee:ff',
      dhcp_hostname: 'laptop\\7',
      dhcp_assigned_ip: '10.0.0.77',
      file_stored: true,
    });
    expect((await stored('network_events', 1))[0]).toMatchObject({ smtp_rcpt_to: null, file_stored: null });
    const [alert] = await stored('network_events', 1);
    // The record as it arrived, byte for byte; the normalised event without it.
    expect(alert!.raw).toBe(eve.split('\n')[0]);
    expect(alert!.flow_id).toBe('18446744073709551615');
    expect(alert!.sensor).toBe('sensor\\1');
    expect(alert!.signature).toBe('ET "quoted" Ж');
    expect(alert!.http_url).toBe('/a\\b?q=é');
    expect(JSON.parse(alert!.event as string)).not.toHaveProperty('raw');
    const [process, evtx] = await stored('endpoint_events', 1);
    expect(process!.command_line).toBe('cmd.exe /c "echo \\"hi\\"\tthere"');
    expect(process!.user_name).toBe('Пользователь');
    expect(evtx!.file_path).toBe('C:\\Temp\\x.dll');
    expect(evtx!.raw).toBe(endpoint.split('\n')[1]);
  });
});
