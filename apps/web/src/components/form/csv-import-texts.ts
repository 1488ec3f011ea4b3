import type { ReactNode } from 'react';
import { useTranslation, type TFunction } from '../../lib/i18n';
import type { Answer, CsvImportTexts } from './csv-import';

/**
 * A refused row's reason in the interface language: the server writes its reasons in English, so in
 * any other language a row refused for a column the import names (`reasons`: column → text) or for
 * its shape (a row, the header or the file, list.csvImport.reasons) is said in the console's words.
 */
export function reasonsInLanguage(
  t: TFunction,
  language: string,
  reasons: Readonly<Record<string, string>>,
): CsvImportTexts<Answer>['reasonOf'] {
  if (language === 'en') return undefined;
  const shape: Record<string, string> = {
    row: t('list.csvImport.reasons.row'),
    header: t('list.csvImport.reasons.header'),
    file: t('list.csvImport.reasons.file'),
  };
  return ({ field }) => reasons[field] ?? shape[field];
}

/**
 * The texts every CSV import shares (list.csvImport), with the import's own title, introduction and
 * "done" notice, and its columns' reasons (see reasonsInLanguage).
 */
export function useCsvImportTexts<A extends Answer>({
  reasons = {},
  ...own
}: {
  title: string;
  intro: ReactNode;
  done: (answer: A) => string;
  reasons?: Readonly<Record<string, string>>;
}): CsvImportTexts<A> {
  const { t, i18n } = useTranslation();
  return {
    ...own,
    reasonOf: reasonsInLanguage(t, i18n.language, reasons),
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
