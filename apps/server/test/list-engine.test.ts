import type { ListAnswer, SystemLog } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkInsert } from '../src/db/bulk';
import { sql } from '../src/db/sql';
import { buildDetection, raise } from './helpers/alert-factories';
import type { TestClient } from './helpers/http-client';
import { buildCompany, startTestApp, type TestApp } from './helpers/test-app';

type Page = ListAnswer<SystemLog>;
type Errors = { errors: Record<string, string[]> };

let t: TestApp;
let admin: TestClient;
let companyA: number;
let companyB: number;
const base = Date.parse('2026-01-01T00:00:00Z');
const actions = ['create', 'update', 'delete', 'export'];

beforeAll(async () => {
  t = await startTestApp();
  companyA = await buildCompany(t.db, 'Alpha Bank');
  companyB = await buildCompany(t.db, 'Beta Retail');
  // Rows share timestamps in pairs so tie-breaking by id is exercised; some usernames are null.
  const rows = Array.from({ length: 150 }, (_, i) => [
    i < 120 ? companyA : companyB,
    new Date(base + Math.floor(i / 2) * 60_000),
    i % 5 === 0 ? null : `user${i % 7}`,
    actions[i % 4],
    i % 3 === 0 ? 'alert' : 'incident',
    String(i),
    i === 42 ? 'Strange 100% object_name' : `object ${i}`,
  ]);
  await bulkInsert(
    t.db,
    'system_logs',
    [
      { name: 'company_id', type: 'int8' },
      { name: 'date_time', type: 'timestamptz' },
      { name: 'username', type: 'text' },
      { name: 'action', type: 'text' },
      { name: 'object_type', type: 'text' },
      { name: 'object_id', type: 'text' },
      { name: 'object_repr', type: 'text' },
    ],
    rows,
  );
  admin = await t.admin();
});
afterAll(async () => {
  await t?.close();
});

/** Only the seeded rows: sign-in writes audit rows of its own. */
const seeded = { object_type: ['alert', 'incident'] };

const check = (query: string, body: unknown = seeded) => admin.post<Page>(`/api/system_logs/check/${query}`, body);

async function expectedIds(order: ReturnType<typeof sql>, where = sql`object_type IN ('alert', 'incident')`) {
  const { rows } = await t.db.query<{ id: number }>(sql`SELECT id FROM system_logs WHERE ${where} ORDER BY ${order}`);
  return rows.map((r) => r.id);
}

/** Follows `next` links from the first page and returns every id seen. */
async function walkForward(first: Page, body: unknown = seeded) {
  const ids = first.results.map((r) => r.id);
  let page = first;
  let guard = 0;
  while (page.next && guard++ < 100) {
    const answer = await admin.post<Page>(page.next, body);
    expect(answer.status).toBe(200);
    page = answer.body;
    ids.push(...page.results.map((r) => r.id));
  }
  return { ids, last: page };
}

describe('list engine: paging', () => {
  it('answers results, count, next and previous with the default ordering (newest first)', async () => {
    const answer = await check('?page_size=10');
    expect(answer.status).toBe(200);
    expect(answer.body.count).toBe(150);
    expect(answer.body.results).toHaveLength(10);
    expect(answer.body.previous).toBeNull();
    const next = new URL(answer.body.next!);
    expect(next.pathname).toBe('/api/system_logs/check/');
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.get('page_size')).toBe('10');
    expect(next.searchParams.get('ordering')).toBe('-date_time');
    expect(next.searchParams.get('cursor')).toBeTruthy();
    expect(answer.body.results.map((r) => r.id)).toEqual(
      (await expectedIds(sql`date_time DESC, id DESC`)).slice(0, 10),
    );
  });

  it('walks every row exactly once through next links, and back through previous links', async () => {
    const first = await check('?page_size=7&ordering=-date_time');
    const { ids, last } = await walkForward(first.body);
    expect(ids).toEqual(await expectedIds(sql`date_time DESC, id DESC`));
    expect(last.next).toBeNull();

    const backwards: number[][] = [last.results.map((r) => r.id)];
    let page = last;
    let guard = 0;
    while (page.previous && guard++ < 100) {
      page = (await admin.post<Page>(page.previous, seeded)).body;
      backwards.unshift(page.results.map((r) => r.id));
    }
    expect(backwards.flat()).toEqual(ids);
    expect(backwards[0]).toEqual(first.body.results.map((r) => r.id));
  });

  it('pages by keyset the same way as by page number, for mixed sort directions', async () => {
    const first = await check('?page_size=9&ordering=action,-date_time');
    const { ids } = await walkForward(first.body);
    expect(ids).toEqual(await expectedIds(sql`action ASC, date_time DESC, id DESC`));
    const byNumber = await check('?page_size=9&page=5&ordering=action,-date_time');
    expect(byNumber.body.results.map((r) => r.id)).toEqual(ids.slice(36, 45));
  });

  it('accepts repeated ordering keys and orders by nullable fields without a cursor', async () => {
    const answer = await check('?page_size=20&ordering=username&ordering=-id');
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((r) => r.id)).toEqual(
      (await expectedIds(sql`username ASC NULLS LAST, id DESC`)).slice(0, 20),
    );
    const next = new URL(answer.body.next!);
    expect(next.searchParams.get('ordering')).toBe('username,-id');
    expect(next.searchParams.get('cursor')).toBeNull();
    const { ids } = await walkForward(answer.body);
    expect(ids).toEqual(await expectedIds(sql`username ASC NULLS LAST, id DESC`));
  });

  it('ignores a cursor made for other filters and still answers the right page', async () => {
    const first = await check('?page_size=10');
    const otherFilters = { ...seeded, action: 'create' };
    const answer = await admin.post<Page>(first.body.next!, otherFilters);
    expect(answer.status).toBe(200);
    const expected = await expectedIds(
      sql`date_time DESC, id DESC`,
      sql`object_type IN ('alert', 'incident') AND action = 'create'`,
    );
    expect(answer.body.results.map((r) => r.id)).toEqual(expected.slice(10, 20));
  });

  it('answers an empty first page when nothing matches', async () => {
    const answer = await check('', { search: 'no such thing anywhere' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ results: [], count: 0, next: null, previous: null });
  });
});

describe('list engine: filters and search', () => {
  it('filters by one value or any of several', async () => {
    const one = await check('?page_size=500', { ...seeded, action: 'delete' });
    expect(one.body.count).toBe(37);
    expect(one.body.results.every((r) => r.action === 'delete')).toBe(true);
    const several = await check('?page_size=500', { ...seeded, action: ['delete', 'export'] });
    expect(several.body.count).toBe(74);
    expect(new Set(several.body.results.map((r) => r.action))).toEqual(new Set(['delete', 'export']));
  });

  it('filters by company and by time range (inclusive)', async () => {
    const answer = await check('?page_size=500', {
      ...seeded,
      company_id: companyB,
      date_time_from: new Date(base + 60 * 60_000).toISOString(),
      date_time_to: new Date(base + 70 * 60_000).toISOString(),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.count).toBe(22);
    expect(answer.body.results.every((r) => r.company_id === companyB)).toBe(true);
  });

  it('searches case-insensitively and treats % and _ literally', async () => {
    const percent = await check('', { ...seeded, search: '100%' });
    expect(percent.body.results.map((r) => r.object_repr)).toEqual(['Strange 100% object_name']);
    const upper = await check('', { ...seeded, search: 'STRANGE' });
    expect(upper.body.count).toBe(1);
    const underscore = await check('', { ...seeded, search: 'object_' });
    expect(underscore.body.count).toBe(1);
  });

  it('matches %, _, ! and \\ literally in the search of other lists and of the alert queue', async () => {
    const names = ['stage_1', 'stageX1', '100% done', '1000 done', 'bang!x', 'bang!!x', 'back\\slash', 'backslash'];
    for (const name of names) {
      const created = await admin.post('/api/units/', { name, company_id: companyA });
      expect(created.status).toBe(201);
    }
    const found = async (search: string) => {
      const answer = await admin.post<ListAnswer<{ name: string }>>('/api/units/check/', {
        search,
        company_id: companyA,
      });
      expect(answer.status).toBe(200);
      return answer.body.results.map((r) => r.name).sort();
    };
    expect(await found('stage_')).toEqual(['stage_1']);
    expect(await found('_')).toEqual(['stage_1']);
    expect(await found('0%')).toEqual(['100% done']);
    expect(await found('%')).toEqual(['100% done']);
    expect(await found('g!x')).toEqual(['bang!x']);
    expect(await found('k\\s')).toEqual(['back\\slash']);
    const count = await admin.post<{ count: number }>('/api/units/count/', { search: '_', company_id: companyA });
    expect(count.body.count).toBe(1);

    await raise(t.db, [
      buildDetection(companyA, { title: 'cmd_exe spawned', ruleId: 'like-1' }),
      buildDetection(companyA, { title: 'cmdXexe spawned', ruleId: 'like-2' }),
    ]);
    const alerts = await admin.post<ListAnswer<{ title: string }>>('/api/alerts/check/', { search: 'cmd_exe' });
    expect(alerts.body.results.map((a) => a.title)).toEqual(['cmd_exe spawned']);
  });

  it('counts with the same filters as the list', async () => {
    const body = { ...seeded, action: ['create', 'update'], company_id: [companyA] };
    const count = await admin.post<{ count: number }>('/api/system_logs/count/', body);
    const list = await check('', body);
    expect(count.status).toBe(200);
    expect(count.body.count).toBe(list.body.count);
    expect(count.body.count).toBe(60);
  });
});

describe('list engine: bad input is a 400 with field errors, never a 500', () => {
  const cases: [string, string, unknown, string][] = [
    ['an unknown filter', '', { severity: 'high' }, 'severity'],
    ['a filter of the wrong type', '', { action: 5 }, 'action'],
    ['a malformed date', '', { date_time_from: 'yesterday' }, 'date_time_from'],
    ['a huge search', '', { search: 'x'.repeat(1000) }, 'search'],
    ['an unknown ordering field', '?ordering=-password', {}, 'ordering'],
    ['one bad field among good ones', '?ordering=action,nope', {}, 'ordering'],
    ['a page past the end', '?page=999', {}, 'page'],
    ['page zero', '?page=0', {}, 'page'],
    ['a page that is not a number', '?page=abc', {}, 'page'],
    ['a fractional page', '?page=1.5', {}, 'page'],
    ['page_size zero', '?page_size=0', {}, 'page_size'],
    ['page_size above 500', '?page_size=501', {}, 'page_size'],
    ['page_size not a number', '?page_size=lots', {}, 'page_size'],
    ['a cursor that is not ours', '?cursor=not-a-cursor', {}, 'cursor'],
    ['a body that is a list', '', [1, 2], 'non_field_errors'],
  ];
  for (const [what, query, body, field] of cases) {
    it(`refuses ${what}`, async () => {
      const answer = await admin.post<Errors>(`/api/system_logs/check/${query}`, body);
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body.errors)).toContain(field);
      expect(answer.body.errors[field]?.[0]).toMatch(/\w/);
    });
  }

  it('explains which ordering fields exist', async () => {
    const answer = await admin.post<Errors>('/api/system_logs/check/?ordering=nope', {});
    expect(answer.body.errors.ordering?.[0]).toMatch(/date_time/);
  });

  it('refuses malformed JSON', async () => {
    const answer = await admin.request<Errors>('POST', '/api/system_logs/check/', {
      rawBody: '{"search": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
  });

  it('refuses bad filters on count too', async () => {
    const answer = await admin.post<Errors>('/api/system_logs/count/', { nope: 1 });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.nope).toBeDefined();
  });

  it('accepts a list request without a body', async () => {
    const answer = await admin.post<Page>('/api/system_logs/check/');
    expect(answer.status).toBe(200);
  });
});
