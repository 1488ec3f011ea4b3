import { CsvImportModal } from '../../../components/form';
import { useCsvImportTexts } from '../../../components/form/csv-import-texts';
import { useTranslation } from '../../../lib/i18n';
import { importIndicators, indicatorKeys } from '../api/indicators';

/** A CSV file of indicators, picked or dropped, imported into a company; refused rows listed with their reason. */
export function IndicatorImportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const texts = useCsvImportTexts({
    title: t('indicators.import.title'),
    intro: t('indicators.import.intro'),
    done: (answer) => t('indicators.import.done', { created: answer.created, updated: answer.updated }),
    reasons: {
      type: t('indicators.errors.type'),
      value: t('indicators.errors.value'),
      policy: t('indicators.errors.policy'),
      severity: t('indicators.errors.severity'),
      expires_at: t('indicators.errors.expiresAt'),
      tags: t('indicators.errors.tags'),
      source: t('indicators.errors.source'),
      description: t('indicators.errors.description'),
    },
  });
  return (
    <CsvImportModal
      opened={opened}
      onClose={onClose}
      run={(csv, companyId) => importIndicators(csv, { companyId })}
      invalidate={indicatorKeys.all}
      testId="indicator-import"
      texts={texts}
    />
  );
}
