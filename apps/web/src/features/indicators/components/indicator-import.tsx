import { CsvImportModal } from '../../../components/form';
import { useTranslation } from '../../../lib/i18n';
import { importIndicators, indicatorKeys } from '../api/indicators';

/** A CSV file of indicators, picked or dropped, imported into a company; refused rows listed with their reason. */
export function IndicatorImportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <CsvImportModal
      opened={opened}
      onClose={onClose}
      run={(csv, companyId) => importIndicators(csv, { companyId })}
      invalidate={indicatorKeys.all}
      testId="indicator-import"
      texts={{
        title: t('indicators.import.title'),
        intro: t('indicators.import.intro'),
        drop: t('indicators.import.drop'),
        chosen: (name) => t('indicators.import.chosen', { name }),
        notCsv: t('indicators.import.notCsv'),
        tooLarge: t('indicators.import.tooLarge'),
        run: t('indicators.import.run'),
        result: (answer) =>
          t('indicators.import.result', {
            created: answer.created,
            updated: answer.updated,
            rejected: answer.rejected.length,
          }),
        done: (answer) => t('indicators.import.done', answer),
        rejectedTitle: t('indicators.import.rejectedTitle'),
        row: t('indicators.import.row'),
        field: t('indicators.import.field'),
        reason: t('indicators.import.reason'),
        more: (count) => t('indicators.import.more', { count }),
      }}
    />
  );
}
