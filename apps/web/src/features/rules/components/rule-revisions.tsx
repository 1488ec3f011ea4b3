import '../../../components/ui/rule-source.css';
import { Group, Loader, Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { formatDate } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { Panel } from '../../../components/ui/panel';
import { fetchRuleDiff, ruleKeys, type RuleDetail, type RuleKind } from '../api/rules';
import { diffStats, parseUnifiedDiff, type DiffRow } from '../lib/unified-diff';

/** The rule's revisions, and the difference between two of them (by default the last two). */
export function RuleRevisions({ kind, rule }: { kind: RuleKind; rule: RuleDetail }) {
  const { t } = useTranslation();
  const revisions = [...rule.revisions].sort((a, b) => b.revision - a.revision);
  const latest = revisions[0]?.revision ?? rule.revision;
  const [to, setTo] = useState(latest);
  const [from, setFrom] = useState(Math.max(1, latest - 1));
  const options = revisions.map((revision) => ({
    value: String(revision.revision),
    label: `${t('rules.revisions.revision', { revision: revision.revision })} · ${formatDate(revision.changedAt, 'isoDate')}`,
  }));
  return (
    <Panel title={t('rules.revisions.title')} testId="rule-revisions">
      <ol className="vigil-rule-revisions">
        {revisions.map((revision) => (
          <li key={revision.revision}>
            <Text size="sm" fw={600} span>
              {t('rules.revisions.revision', { revision: revision.revision })}
            </Text>{' '}
            <Text size="sm" c="dimmed" span>
              {t('rules.revisions.by', {
                date: formatDate(revision.changedAt, 'isoDateTime'),
                user: revision.changedBy ?? t('rules.revisions.system'),
              })}
            </Text>
          </li>
        ))}
      </ol>
      {revisions.length < 2 ? (
        <Text size="sm" c="dimmed" mt="xs">
          {t('rules.revisions.only')}
        </Text>
      ) : (
        <>
          <Group gap="sm" mt="sm" mb="sm" align="flex-end">
            <Select
              label={t('rules.revisions.from')}
              data={options}
              value={String(from)}
              onChange={(value) => value && setFrom(Number(value))}
              allowDeselect={false}
              w={240}
              data-testid="rule-diff-from"
            />
            <Select
              label={t('rules.revisions.to')}
              data={options}
              value={String(to)}
              onChange={(value) => value && setTo(Number(value))}
              allowDeselect={false}
              w={240}
              data-testid="rule-diff-to"
            />
          </Group>
          <RevisionDiff kind={kind} id={rule.id} from={Math.min(from, to)} to={Math.max(from, to)} />
        </>
      )}
    </Panel>
  );
}

function RevisionDiff({ kind, id, from, to }: { kind: RuleKind; id: number; from: number; to: number }) {
  const { t } = useTranslation();
  const { data, error, isPending } = useQuery({
    queryKey: ruleKeys.diff(kind, id, from, to),
    queryFn: ({ signal }) => fetchRuleDiff(kind, id, from, to, signal),
    enabled: from !== to,
  });
  const rows = useMemo(() => (data ? parseUnifiedDiff(data.diff) : []), [data]);
  if (from === to || (data && rows.length === 0)) {
    return (
      <Text size="sm" c="dimmed">
        {t('rules.revisions.same')}
      </Text>
    );
  }
  if (isPending) return <Loader size="sm" />;
  if (error || !data) {
    return (
      <Text size="sm" c="red">
        {t('rules.revisions.failed')}
      </Text>
    );
  }
  const stats = diffStats(rows);
  return (
    <>
      <Text size="xs" c="dimmed" mb={4} data-testid="rule-diff-stats">
        {t('rules.revisions.stats', stats)}
      </Text>
      <DiffView rows={rows} />
    </>
  );
}

const markers: Record<DiffRow['kind'], string> = { added: '+', removed: '-', context: ' ', hunk: '', note: '' };

/** A unified diff: old and new line numbers, then the line, added lines green and removed ones red. */
export function DiffView({ rows }: { rows: readonly DiffRow[] }) {
  return (
    <div className="vigil-rule-source vigil-diff" style={{ maxHeight: 480 }} data-testid="rule-diff" tabIndex={0}>
      <pre>
        {rows.map((row, index) => (
          <span key={index} className="vigil-diff__row" data-kind={row.kind}>
            <span className="vigil-diff__number" aria-hidden="true">
              {row.oldLine ?? ''}
            </span>
            <span className="vigil-diff__number" aria-hidden="true">
              {row.newLine ?? ''}
            </span>
            <code>
              {markers[row.kind]}
              {row.text || '\u200b'}
            </code>
          </span>
        ))}
      </pre>
    </div>
  );
}
