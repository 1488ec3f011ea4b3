import { Badge, Group, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { DetailSection } from '../../../components/list-page';
import { formatDate } from '../../../lib/dates';
import { useFileYara } from '../api/investigation';
import { yaraSkipReason } from '../lib/codes';

/** The YARA rules that matched a file: rule, file of rules, tags, meta and matched strings with offsets. */
export function FileYaraSection({
  sha256,
  companyName,
  manyCompanies,
}: {
  sha256: string;
  companyName: (id: number) => string;
  manyCompanies: boolean;
}) {
  const { t } = useTranslation();
  const yara = useFileYara(sha256);
  const data = yara.data;
  return (
    <DetailSection title={t('investigation.files.yara.title')} testId="file-yara">
      {yara.isLoading && <Loader size="xs" />}
      {yara.isError && (
        <Text size="sm" c="dimmed">
          {t('investigation.files.yara.failed')}
        </Text>
      )}
      {data && (
        <Stack gap="xs">
          <Text size="sm" c="dimmed" data-testid="file-yara-status">
            {data.status === 'scanned'
              ? t('investigation.files.yara.scanned', { when: data.scannedAt ? formatDate(data.scannedAt) : '—' })
              : data.status === 'pending'
                ? t('investigation.files.yara.pending')
                : t('investigation.files.yara.skipped', { reason: yaraSkipReason(data.reason) })}
          </Text>
          {data.status !== 'pending' && data.matches.length === 0 && (
            <Text size="sm">{t('investigation.files.yara.none')}</Text>
          )}
          {data.matches.map((match) => (
            <div key={`${match.companyId}-${match.ruleId}-${match.revision}`} data-testid="file-yara-match">
              <Group gap={6} wrap="wrap">
                <Text size="sm" fw={600} className="vigil-inv-mono">
                  {match.ruleName}
                </Text>
                {match.tags.map((tag) => (
                  <Badge key={tag} size="xs" variant="light" color="gray">
                    {tag}
                  </Badge>
                ))}
              </Group>
              <Text size="xs" c="dimmed">
                {[
                  match.title && match.title !== match.ruleName ? match.title : null,
                  match.namespace,
                  t('investigation.files.yara.revision', { revision: match.revision }),
                  manyCompanies ? companyName(match.companyId) : null,
                  formatDate(match.matchedAt),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
              {Object.keys(match.metadata).length > 0 && (
                <Text size="xs" c="dimmed">
                  {Object.entries(match.metadata)
                    .slice(0, 6)
                    .map(([key, value]) => `${key}: ${String(value)}`)
                    .join(' · ')}
                </Text>
              )}
              {match.strings.length > 0 && (
                <Text size="xs" className="vigil-inv-mono">
                  {t('investigation.files.yara.strings')}{' '}
                  {match.strings.map((s) => `${s.identifier} @ 0x${s.offset.toString(16)}`).join(', ')}
                </Text>
              )}
            </div>
          ))}
        </Stack>
      )}
    </DetailSection>
  );
}
