import { IconHourglassHigh } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n';
import { MessagePage } from './message-page';

/**
 * What a link to a section of the console that is not built yet shows, whoever follows it: the
 * section by name, and that nothing is wrong with the account or the link (unlike "no access" and
 * "not found", which say exactly that).
 */
export function UnavailablePage({ section }: { section: string }) {
  const { t } = useTranslation();
  return (
    <MessagePage
      icon={<IconHourglassHigh size={28} />}
      color="blue"
      title={t('unavailable.title')}
      message={t('unavailable.message', { section })}
      homeLink
      testId="unavailable"
    />
  );
}
