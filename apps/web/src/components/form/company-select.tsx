import { Select } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { useSignedInUser } from '../../lib/session';

/** Which of the user's companies a new record belongs to; not shown to someone who sees only one. */
export function CompanySelect({
  value,
  onChange,
  error,
}: {
  value: number;
  onChange: (companyId: number) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  if (me.companies.length <= 1) return null;
  return (
    <Select<number>
      label={t('users.company')}
      data={me.companies.map((company) => ({ value: company.id, label: company.name }))}
      value={value}
      onChange={(next) => next !== null && onChange(next)}
      searchable
      allowDeselect={false}
      error={error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
