import { CsvImportModal } from '../../../components/form/csv-import';
import { useTranslation } from '../../../lib/i18n';
import { importIndicators, indicatorKeys } from '../api/indicators';

/** A CSV file of indicators, picked or dropped, imported into a company; refused rows listed with their reason. */
export function IndicatorImportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <CsvImportModal
      opened={opened}
      onClose={onClose}
      title={t('indicators.import.title')}
      intro={t('indicators.import.intro')}
      run={(csv, companyId) => importIndicators(csv, { companyId })}
      invalidate={indicatorKeys.all}
      done={({ created, updated }) => t('indicators.import.done', { created, updated })}
      testId="indicator-import"
    />
  );
}
