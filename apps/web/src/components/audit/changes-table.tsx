import { Code, Table } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { Note } from '../ui/note';

export type FieldChanges = Record<string, { before?: unknown; after?: unknown }>;

function formatValue(value: unknown): string {
  if (value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An audit record's changed fields, each with its value before and after. */
export function ChangesTable({ changes }: { changes: FieldChanges }) {
  const { t } = useTranslation();
  const entries = Object.entries(changes);
  if (entries.length === 0) return <Note>{t('systemLogs.noChanges')}</Note>;
  return (
    <Table className="vigil-changes" withRowBorders={false} verticalSpacing={4} data-testid="changes">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('systemLogs.field')}</Table.Th>
          <Table.Th>{t('systemLogs.before')}</Table.Th>
          <Table.Th>{t('systemLogs.after')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map(([field, change]) => (
          <Table.Tr key={field}>
            <Table.Td>
              <Code>{field}</Code>
            </Table.Td>
            <Table.Td className="vigil-changes__value vigil-changes__before">{formatValue(change.before)}</Table.Td>
            <Table.Td className="vigil-changes__value vigil-changes__after">{formatValue(change.after)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
