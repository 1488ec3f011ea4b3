// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { initI18n, type TFunction } from '../../../lib/i18n';
import type { RuleTestAnswer } from '../api/rules';
import { noteText } from './rule-test';

type Note = RuleTestAnswer['notes'][number];

const notes: Note[] = [
  { kind: 'event_read', format: 'evtx', action: 'process-create', channel: 'Security', code: '4688' },
  { kind: 'log_sources', sources: ['product:windows', 'category:process_creation'] },
  { kind: 'log_sources', sources: [] },
  { kind: 'log_source_excludes', rule: 'r1', title: 'Word network', source: 'category:network_connection' },
  { kind: 'detection_no_match', rule: 'r2', title: 'Mimikatz' },
  { kind: 'eve_alert', gid: 1, sid: 2990001, rev: 2, signature: 'ET TROJAN beacon' },
  { kind: 'no_rule_for_alert' },
  { kind: 'parsed_only' },
  { kind: 'other_revision', rule: '1:2990001', sensor: 2, text: 3 },
  { kind: 'other_message', rule: '1:2990001', sensor: 'old message' },
  { kind: 'file_scanned', name: 'invoice.exe', bytes: 2048 },
];

describe('the facts of a rule test, worded', () => {
  it.each(['en', 'ru'] as const)('says each kind of fact in %s, with its values and no key left', async (language) => {
    const t = (await initI18n(language)).t.bind(null) as unknown as TFunction;
    const texts = notes.map((note) => noteText(note, t, language));
    for (const text of texts) expect(text).not.toMatch(/rules\.test|\{\{/);
    expect(new Set(texts).size).toBe(texts.length);
    expect(texts[0]).toContain('4688');
    expect(texts[3]).toContain('category:network_connection');
    expect(texts[5]).toContain('2990001');
    expect(texts[8]).toMatch(/2.*3/);
    if (language === 'ru') expect(texts.join(' ')).toMatch(/Событие|ревизия|Файл/);
    else expect(texts[4]).toBe('Mimikatz: its detection does not match this event.');
  });
});
