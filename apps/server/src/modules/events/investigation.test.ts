import { describe, expect, it } from 'vitest';
import { buildProcessTree, isProcessStart, worstVerdict, type ProcessEventRow } from './investigation';

function row(
  id: number,
  ts: string,
  pid: number | null,
  parentPid: number | null,
  extra: Partial<ProcessEventRow> = {},
) {
  const event: ProcessEventRow = {
    id,
    company_id: 1,
    ts,
    action: 'process-create',
    pid,
    entity_id: null,
    parent_pid: parentPid,
    parent_entity_id: null,
    name: `p${pid}`,
    executable: null,
    command_line: null,
    parent_name: null,
    user: null,
    md5: null,
    sha1: null,
    sha256: null,
    ...extra,
  };
  return event;
}

describe('buildProcessTree', () => {
  it('stops at the limit and says the answer is truncated', () => {
    const rows = Array.from({ length: 10 }, (_, i) =>
      row(i + 1, `2024-01-01T00:00:0${i}Z`, 100 + i, i === 0 ? null : 99 + i),
    );
    const tree = buildProcessTree(rows, 4);
    expect(tree.truncated).toBe(true);
    expect(tree.processes.map((p) => p.pid)).toEqual([100, 101, 102, 103]);
    expect(buildProcessTree(rows, 10).truncated).toBe(false);
  });

  it('links a child to the latest earlier process of its parent pid, never to a later one', () => {
    const tree = buildProcessTree(
      [
        row(1, '2024-01-01T00:00:00Z', 10, null),
        row(2, '2024-01-01T00:01:00Z', 20, 10),
        row(3, '2024-01-01T00:02:00Z', 10, null), // pid 10 reused
        row(4, '2024-01-01T00:03:00Z', 30, 10),
        row(5, '2024-01-01T00:04:00Z', 40, 50), // its parent starts later: no link
        row(6, '2024-01-01T00:05:00Z', 50, null),
      ],
      100,
    );
    const byPid = (pid: number) => tree.processes.filter((p) => p.pid === pid);
    const [first, second] = byPid(10);
    expect(byPid(20)[0]!.parent_key).toBe(first!.key);
    expect(byPid(30)[0]!.parent_key).toBe(second!.key);
    expect(byPid(40)[0]!.parent_key).toBeNull();
  });

  it('joins activity to its process and keeps a process seen only by its activity', () => {
    const tree = buildProcessTree(
      [
        row(1, '2024-01-01T00:00:00Z', 7, null, { action: 'network-connection', name: 'svc.exe' }),
        row(2, '2024-01-01T00:00:05Z', 7, null, { action: 'file-create', sha256: 'a'.repeat(64) }),
      ],
      100,
    );
    expect(tree.processes).toHaveLength(1);
    expect(tree.processes[0]).toMatchObject({ start_seen: false, event_count: 2, name: 'svc.exe' });
    expect(tree.processes[0]!.hashes.sha256).toBe('a'.repeat(64));
    expect(tree.processes[0]!.event_ids).toEqual([1, 2]);
  });

  it('knows start actions of Sysmon, Windows and ECS sources', () => {
    expect(['process-create', 'start', 'exec', 'Process-Start'].every(isProcessStart)).toBe(true);
    expect(isProcessStart('network-connection')).toBe(false);
    expect(isProcessStart(null)).toBe(false);
  });
});

describe('worstVerdict', () => {
  it('prefers malicious over allowed over unknown, with the highest severity', () => {
    expect(
      worstVerdict([
        { verdict: 'allowed', severity: null, indicator_ids: [9] },
        { verdict: 'malicious', severity: 'low', indicator_ids: [1] },
        { verdict: 'malicious', severity: 'high', indicator_ids: [2] },
      ]),
    ).toEqual({ verdict: 'malicious', severity: 'high', indicator_ids: [1, 2] });
    expect(worstVerdict([{ verdict: 'allowed', severity: null, indicator_ids: [9] }]).verdict).toBe('allowed');
    expect(worstVerdict([]).verdict).toBe('unknown');
  });
});
