import { describe, expect, it } from 'vitest';
import { parseThresholdConfig, parseThresholdLine } from './threshold-config';
import { formatThresholdConfig } from './writer';

describe('threshold.config', () => {
  it('reads suppress with and without a track and ip', () => {
    expect(parseThresholdLine('suppress gen_id 1, sig_id 2002087')).toEqual({
      ok: true,
      value: { kind: 'suppress', gid: 1, sid: 2002087, track: null, ip: null, ipText: null },
    });
    expect(parseThresholdLine('suppress gen_id 1, sig_id 2003614, track by_src, ip 217.110.97.128/25')).toEqual({
      ok: true,
      value: {
        kind: 'suppress',
        gid: 1,
        sid: 2003614,
        track: 'by_src',
        ip: { kind: 'ip', address: '217.110.97.128', prefix: 25, family: 4 },
        ipText: '217.110.97.128/25',
      },
    });
  });

  it('reads an ip group with commas inside, and a variable', () => {
    const group = parseThresholdLine('suppress gen_id 1, sig_id 5, track by_either, ip [192.168.0.0/16, 10.0.0.0/8]');
    expect(group.ok && group.value).toMatchObject({
      track: 'by_either',
      ipText: '[192.168.0.0/16, 10.0.0.0/8]',
      ip: { kind: 'group' },
    });
    const variable = parseThresholdLine('suppress gen_id 0, sig_id 0, track by_dst, ip $HOME_NET');
    expect(variable.ok && variable.value).toMatchObject({ gid: 0, sid: 0, ip: { kind: 'var', name: 'HOME_NET' } });
  });

  it('reads threshold, event_filter and rate_filter', () => {
    expect(parseThresholdLine('threshold gen_id 1, sig_id 10, type both, track by_src, count 3, seconds 5')).toEqual({
      ok: true,
      value: {
        kind: 'threshold',
        keyword: 'threshold',
        gid: 1,
        sid: 10,
        type: 'both',
        track: 'by_src',
        count: 3,
        seconds: 5,
      },
    });
    const filter = parseThresholdLine(
      'event_filter gen_id 1, sig_id 10, type limit, track by_both, count 1, seconds 60',
    );
    expect(filter.ok && filter.value).toMatchObject({
      kind: 'threshold',
      keyword: 'event_filter',
      type: 'limit',
      track: 'by_both',
    });
    expect(
      parseThresholdLine(
        'rate_filter: rate_filter gen_id 1, sig_id 1000, track by_rule, count 100, seconds 60, new_action drop, timeout 30',
      ),
    ).toEqual({
      ok: true,
      value: {
        kind: 'rate_filter',
        gid: 1,
        sid: 1000,
        track: 'by_rule',
        count: 100,
        seconds: 60,
        newAction: 'drop',
        timeout: 30,
      },
    });
  });

  it.each([
    ['supress gen_id 1, sig_id 1', /"supress" is not a threshold.config entry/],
    ['suppress gen_id 1', /suppress needs sig_id/],
    ['suppress gen_id 1, sig_id 1, track by_src', /track and ip together/],
    [
      'suppress gen_id 1, sig_id 1, track by_rule, ip 1.2.3.4',
      /suppress track must be one of by_src, by_dst, by_either/,
    ],
    ['suppress gen_id 1, sig_id 1, track by_src, ip 1.2.3.400', /suppress ip: "1.2.3.400" is not an IP address/],
    ['suppress gen_id x, sig_id 1', /gen_id must be a whole number/],
    ['threshold gen_id 1, sig_id 1, type limit, track by_src, count 1', /threshold needs seconds/],
    [
      'threshold gen_id 1, sig_id 1, type backoff, track by_src, count 1, seconds 1',
      /threshold type must be one of limit, threshold, both/,
    ],
    ['threshold gen_id 1, sig_id 1, type limit, track by_either, count 1, seconds 1', /threshold track must be one of/],
    [
      'threshold gen_id 1, sig_id 1, type limit, track by_src, count 0, seconds 1',
      /count must be a whole number from 1/,
    ],
    ['threshold gen_id 1, sig_id 1, type limit, track by_src, count 1, seconds 1, ip 1.1.1.1', /no setting "ip"/],
    ['threshold gen_id 1, sig_id 1, sig_id 2, type limit, track by_src, count 1, seconds 1', /gives "sig_id" twice/],
    [
      'rate_filter gen_id 1, sig_id 1, track by_src, count 1, seconds 1, new_action explode, timeout 1',
      /new_action must be one of/,
    ],
    ['suppress gen_id 1 sig_id 1', /not a "name value" setting/],
  ])('refuses %s', (line, reason) => {
    const parsed = parseThresholdLine(line);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toMatch(reason);
  });

  it('reads a file with comments, continuations and a refused line, keeping line numbers', () => {
    const content = [
      '# thresholds of sensor one',
      'suppress gen_id 1, sig_id 1',
      '',
      'threshold gen_id 1, sig_id 2, type limit, \\',
      '   track by_dst, count 1, seconds 15',
      'treshold gen_id 1, sig_id 3',
      '  # an indented comment',
    ].join('\n');
    const result = parseThresholdConfig(content);
    expect(result.entries.map((e) => [e.line, e.entry.kind, e.entry.sid])).toEqual([
      [2, 'suppress', 1],
      [4, 'threshold', 2],
    ]);
    expect(result.refused).toEqual([
      {
        line: 6,
        reason: expect.stringMatching(/"treshold" is not a threshold.config entry/),
        text: 'treshold gen_id 1, sig_id 3',
      },
    ]);
  });

  it('writes entries back in a form it reads the same', () => {
    const content = [
      'suppress gen_id 1, sig_id 1',
      'suppress gen_id 1, sig_id 2, track by_either, ip [10.0.0.0/8, $HOME_NET]',
      'event_filter gen_id 3, sig_id 4, type threshold, track by_rule, count 10, seconds 60',
      'rate_filter gen_id 1, sig_id 5, track by_src, count 10, seconds 60, new_action drop, timeout 300',
    ].join('\n');
    const entries = parseThresholdConfig(content).entries.map((e) => e.entry);
    const written = formatThresholdConfig(entries, 'Vigil export\nsensor one');
    expect(written).toBe(`# Vigil export\n# sensor one\n${content}\n`);
    expect(parseThresholdConfig(written).entries.map((e) => e.entry)).toEqual(entries);
  });
});
