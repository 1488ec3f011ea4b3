import { IconLock } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n';
import { MessagePage } from './message-page';

/** What a direct link to a page the user may not open shows. */
export function NoAccessPage() {
  const { t } = useTranslation();
  return (
    <MessagePage
      icon={<IconLock size={28} />}
      color="red"
      title={t('noAccess.title')}
      message={t('noAccess.message')}
      homeLink
      testId="no-access"
    />
  );
}
