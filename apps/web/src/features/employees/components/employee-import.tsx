import { CsvImportModal } from '../../../components/form';
import { reasonsInLanguage } from '../../../components/form/csv-import-texts';
import { useTranslation } from '../../../lib/i18n';
import { employeeKeys, importEmployees } from '../api/employees';

/** Columns of the plain CSV form, as the server reads them. */
const CSV_COLUMNS = 'full_name, emails, accounts, department, title, manager, phone, unit, distinguished_name';
/** Columns of an Active Directory export the import reads (named in the dialog). */
const AD_COLUMNS = 'Name, SamAccountName, UserPrincipalName, mail, Department, Title, Manager, DistinguishedName';

/** A CSV file of employees (plain or an Active Directory export) imported into a company, with a per-row report. */
export function EmployeeImportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <CsvImportModal
      opened={opened}
      onClose={onClose}
      run={importEmployees}
      invalidate={employeeKeys.all}
      testId="employee-import"
      texts={{
        title: t('employees.import.title'),
        intro: t('employees.import.intro', { columns: CSV_COLUMNS, adColumns: AD_COLUMNS }),
        drop: t('employees.import.drop'),
        chosen: (name) => t('employees.import.chosen', { name }),
        notCsv: t('employees.import.notCsv'),
        tooLarge: t('employees.import.tooLarge'),
        run: t('employees.import.run'),
        result: (answer) =>
          t('employees.import.result', {
            created: answer.created,
            updated: answer.updated,
            rejected: answer.rejected.length,
            managers: answer.managersLinked,
          }),
        done: (answer) => t('employees.import.done', answer),
        rejectedTitle: t('employees.import.rejectedTitle'),
        row: t('employees.import.row'),
        field: t('employees.import.field'),
        reason: t('employees.import.reason'),
        more: (count) => t('employees.import.more', { count }),
        reasonOf: reasonsInLanguage(t, i18n.language, {
          full_name: t('employees.errors.fullName'),
          emails: t('employees.errors.emails'),
          accounts: t('employees.errors.accounts'),
          unit: t('employees.import.noSuchUnit'),
          manager: t('employees.import.noSuchManager'),
        }),
      }}
    />
  );
}
