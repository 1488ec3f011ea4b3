import { assetCsvColumnValues } from '@vigil/contract/client';
import { CsvImportModal } from '../../../components/form';
import { useCsvImportTexts } from '../../../components/form/csv-import-texts';
import { useTranslation } from '../../../lib/i18n';
import { assetKeys, importAssets } from '../api/assets';

/** A CSV file of assets, picked or dropped, imported into a company; refused rows listed with their reason. */
export function AssetImportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const texts = useCsvImportTexts({
    title: t('assets.import.title'),
    intro: t('assets.import.intro', { columns: assetCsvColumnValues.join(', '), required: assetCsvColumnValues[0] }),
    done: ({ created, updated }) => t('assets.import.done', { created, updated }),
    reasons: {
      name: t('assets.errors.name'),
      kind: t('assets.errors.kind'),
      criticality: t('assets.errors.criticality'),
      macs: t('assets.errors.macs'),
      ips: t('assets.errors.ips'),
      tags: t('assets.errors.tags'),
    },
  });
  return (
    <CsvImportModal
      opened={opened}
      onClose={onClose}
      run={importAssets}
      invalidate={assetKeys.all}
      testId="asset-import"
      texts={texts}
    />
  );
}
