import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n';
import { ApiError, isAboutField as isAbout, isCancelled } from '../../lib/http';

/**
 * The first problem the server found with a field (camelCase name), to show beside it; problems
 * with one item of a list field (`ipWhitelist.2`) count for the field.
 */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const key = Object.keys(error.fieldErrors).find((name) => isAbout(name, field));
  return key === undefined ? undefined : error.fieldErrors[key]?.[0];
}

/**
 * A field's problem as a form shows it: the server's sentence in English (it is written in English and
 * names the value at fault), the console's own words for the field (`own`) in any other language.
 */
export function fieldProblem(error: unknown, field: string, language: string, own: () => string): string | undefined {
  const problem = fieldError(error, field);
  return problem === undefined || language === 'en' ? problem : own();
}

/**
 * What a refused form submission says about the form as a whole: `non_field_errors`, the server's
 * own sentence, or a generic text. Field problems are shown beside their fields, and any field the
 * form does not show (listed in `shownFields`) is added here so nothing is lost. A failure the HTTP
 * client already notified (a call made with `shownFields`, see RequestOptions) is not said twice.
 */
export function FormError({ error, shownFields = [] }: { error: unknown; shownFields?: readonly string[] }) {
  const { t } = useTranslation();
  if (!error || isCancelled(error)) return null;
  if (error instanceof ApiError && error.notified) return null;
  const lines: string[] = [];
  if (error instanceof ApiError) {
    for (const [field, problems] of Object.entries(error.fieldErrors)) {
      if (!shownFields.some((shown) => isAbout(field, shown))) lines.push(...problems);
    }
    if (error.detail && lines.length === 0 && Object.keys(error.fieldErrors).length === 0) lines.push(error.detail);
    if (lines.length === 0 && Object.keys(error.fieldErrors).length === 0) {
      lines.push(
        error.status === 0 ? t('errors.network') : t('form.failedWithStatus', { status: String(error.status) }),
      );
    }
  } else {
    lines.push(t('form.failed'));
  }
  if (lines.length === 0) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" data-testid="form-error">
      {lines.map((line) => (
        <div key={line}>{line}</div>
      ))}
    </Alert>
  );
}
