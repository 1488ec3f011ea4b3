import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { notify } from '../../lib/notifications';
import { ConfirmModal } from '../ui/confirm-modal';
import { actionsColumn, cellAction } from './columns';

/**
 * Deleting one row of a list page: the question asked first, the call, the notice and the refresh after.
 * `ask(row)` opens the question; `dialog` is placed once inside the page.
 */
export function useRowDelete<Row extends { id: number }>({
  remove,
  invalidate,
  title,
  question,
  deleted,
}: {
  remove: (id: number) => Promise<unknown>;
  /** The queries that show the row, refreshed once it is gone. */
  invalidate: QueryKey[];
  title: string;
  question: (row: Row) => string;
  deleted: (row: Row) => string;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState<Row | null>(null);
  const mutation = useMutation({
    mutationFn: (row: Row) => remove(row.id),
    onSuccess: async (_answer, row) => {
      notify({ type: 'success', message: deleted(row) });
      setDeleting(null);
      for (const queryKey of invalidate) await queryClient.invalidateQueries({ queryKey });
    },
  });
  const dialog = (
    <ConfirmModal
      opened={deleting !== null}
      title={title}
      message={deleting ? question(deleting) : ''}
      confirmLabel={t('common.delete')}
      danger
      loading={mutation.isPending}
      onConfirm={() => deleting && mutation.mutate(deleting)}
      onClose={() => setDeleting(null)}
    />
  );
  return { ask: setDeleting, dialog };
}

/**
 * The actions column holding a row's delete button; empty for whoever may not delete. `iconOnly`: a
 * narrow column with the bin alone (named for screen readers and on hover), for tables with many columns.
 */
export function deleteColumn<Row>(
  labels: { header: string; delete: string },
  allowed: boolean,
  onDelete: (row: Row) => void,
  { iconOnly = false }: { iconOnly?: boolean } = {},
) {
  return actionsColumn<Row>(
    labels.header,
    (row) =>
      allowed
        ? cellAction({
            label: iconOnly ? null : labels.delete,
            icon: <IconTrash size={14} />,
            danger: true,
            onClick: () => onDelete(row),
            ariaLabel: iconOnly ? labels.delete : undefined,
            title: iconOnly ? labels.delete : undefined,
          })
        : null,
    iconOnly ? '48px' : undefined,
  );
}
