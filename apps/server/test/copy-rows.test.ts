import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkInsert, type BulkColumn } from '../src/db/bulk';
import { copyEscape, copyRows, copyValue, JsonText } from '../src/db/copy';
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
