import type { SearchHit } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { MAIL_FIRST_HITS, reportMail, type ReportForMail } from './report-mail';

const hit = (n: number): SearchHit => ({
  kind: 'network',
  id: n,
  company_id: 1,
  ts: new Date(Date.UTC(2026, 10, 29, 21, 0, n)).toISOString(),
  event: { event_type: 'flow', src_ip: '10.0.0.1', src_port: 40000 + n, dest_ip: '192.0.2.44', dest_port: 22 },
});

const report = (hitCount: number, name = 'SSH out'): ReportForMail => ({
  id: 42,
  savedSearchName: name,
  companyName: 'Alpha Bank',
  query: 'dest_port: 22',
  kinds: ['network', 'endpoint'],
  from: new Date('2026-11-29T20:00:00Z'),
  to: new Date('2026-11-29T21:00:10Z'),
  hitCount,
  firstHits: Array.from({ length: Math.min(hitCount, 20) }, (_, i) => hit(i)),
});

const en = { name: 'Alice', locale: 'en', timeZone: null };
const ru = { name: 'Анна', locale: 'ru', timeZone: 'Europe/Moscow' };

describe('reportMail', () => {
  it('names the saved search and the hits, lists the first hits and links the report', () => {
    const mail = reportMail(report(12), en, 'https://vigil.example.com');
    expect(mail.subject).toBe('Saved search "SSH out": 12 hits');
    const lines = mail.text.split('\n');
    expect(lines).toContain('Query: dest_port: 22');
    expect(lines).toContain('Data: network, endpoints');
    expect(lines).toContain('Events from – to: 29 Nov 2026, 20:00:00 UTC — 29 Nov 2026, 21:00:10 UTC');
    expect(lines.filter((line) => line.startsWith('- '))).toHaveLength(MAIL_FIRST_HITS);
    expect(lines).toContain('- 29 Nov 2026, 21:00:00 UTC  network  flow  10.0.0.1:40000 → 192.0.2.44:22');
    expect(lines).toContain('… and 7 more in the report.');
    expect(lines).toContain('https://vigil.example.com/searches/reports/42');
  });

  it('writes Russian with its plurals, in the reader’s time zone', () => {
    const subjects = [1, 3, 5, 21].map((count) => reportMail(report(count), ru, undefined).subject);
    expect(subjects).toEqual([
      'Сохранённый поиск «SSH out»: 1 совпадение',
      'Сохранённый поиск «SSH out»: 3 совпадения',
      'Сохранённый поиск «SSH out»: 5 совпадений',
      'Сохранённый поиск «SSH out»: 21 совпадение',
    ]);
    const text = reportMail(report(3), ru, undefined).text;
    expect(text).toContain('Здравствуйте, Анна!');
    expect(text).toContain('Данные: сеть, хосты');
    expect(text).toMatch(/События с — по: 29 нояб\. 2026 г\., 23:00:00 (MSK|GMT\+3)/);
    expect(text).toContain('\n/searches/reports/42\n');
  });

  it('keeps the subject one line of at most 200 characters, and reads an unknown zone as UTC', () => {
    const mail = reportMail(
      report(2, `Line one\nline\ttwo ${'x'.repeat(300)}`),
      { ...en, timeZone: 'Nowhere/City' },
      '',
    );
    expect(mail.subject.length).toBeLessThanOrEqual(200);
    expect(mail.subject).toMatch(/^Saved search "Line one line two x+…": 2 hits$/);
    expect(mail.text).toContain('21:00:10 UTC');
  });
});
