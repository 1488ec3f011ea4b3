import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';
import type { Answer, CsvImportTexts } from './csv-import';

/**
 * The texts every CSV import shares (list.csvImport), with the import's own title, introduction and
 * "done" notice.
 */
export function useCsvImportTexts<A extends Answer>(own: {
  title: string;
  intro: ReactNode;
  done: (answer: A) => string;
}): CsvImportTexts<A> {
  const { t } = useTranslation();
  return {
    ...own,
    drop: t('list.csvImport.drop'),
    chosen: (name) => t('list.csvImport.chosen', { name }),
    notCsv: t('list.csvImport.notCsv'),
    tooLarge: t('list.csvImport.tooLarge'),
    run: t('list.csvImport.run'),
    result: (answer) =>
      t('list.csvImport.result', {
        created: answer.created,
        updated: answer.updated,
        rejected: answer.rejected.length,
      }),
    rejectedTitle: t('list.csvImport.rejectedTitle'),
    row: t('list.csvImport.row'),
    field: t('list.csvImport.field'),
    reason: t('list.csvImport.reason'),
    more: (count) => t('list.csvImport.more', { count }),
  };
}
